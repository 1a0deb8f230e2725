/**
 * Connections to sibling packages, loaded lazily: the model provider for the semantic check
 * (@faun/models) and the comment/string-only test (@faun/syntax). What the check cannot decide is
 * returned as a reason, never swallowed.
 * @module
 */

import { parseRepoDirs } from '@faun/kit';
import { extensionOf } from './filters.ts';
import type { CommentOnlyCheck } from './funnel.ts';
import { prFileTexts } from './patch.ts';
import type { Generate } from './semantic.ts';
import { GitHubApiSource, LocalGitSource, type RepoSource, routeSources } from './source.ts';

/**
 * A `generate(prompt)` backed by a `provider:name` model from @faun/models (temperature 0), with
 * retries and the on-disk answer cache, so an interrupted semantic check resumes without paying twice.
 */
export async function providerGenerate(model: string, signal: AbortSignal): Promise<Generate> {
  const models = await import('@faun/models');
  const provider = models.withCache(models.withRetry(await models.createProvider(model), { maxRetries: 3 }));
  return async (prompt) =>
    (await provider.generate({ messages: [{ role: 'user', content: prompt }], temperature: 0 }, { signal }))
      .text;
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]?.slice(0, 120);

/**
 * The comment/string-only check through @faun/syntax (tree-sitter; Python, Java, JavaScript,
 * TypeScript, Go), reading files from `source`. Undefined (step skipped) when there is no source.
 * When it cannot decide it says why (the pair is kept): unsupported language, unreadable file, a
 * version of the file that does not parse, or a grammar failure.
 */
export async function syntaxCommentOnly(source: RepoSource | null): Promise<CommentOnlyCheck | undefined> {
  if (!source) return undefined;
  const syntax = await import('@faun/syntax');
  return async (repo, pr, file) => {
    const lang = syntax.detectLanguage(file.filename);
    if (!lang)
      return { undecided: `unsupported language (.${extensionOf(file.filename) || 'no extension'})` };
    const texts = await prFileTexts(source, repo, pr, file);
    if ('unreadable' in texts) return { undecided: texts.unreadable };
    try {
      await syntax.initSyntax([lang]);
      for (const [side, text] of [
        ['before', texts.before],
        ['after', texts.after],
      ] as const) {
        const parsed = syntax.parseCode(text, lang);
        const broken = parsed.tree.rootNode.hasError;
        parsed.delete();
        if (broken) return { undecided: `the file does not parse as ${lang} (${side} the change)` };
      }
      return syntax.isCommentOrStringOnlyChange(texts.before, texts.after, lang);
    } catch (e) {
      return { undecided: `syntax check failed: ${firstLine(e)}` };
    }
  };
}

/** The file source from `--repo-dir` values and `--api-url` (token from GITHUB_TOKEN / GH_TOKEN). */
export function makeSource(repoDirs: string[], apiUrl: string | undefined): RepoSource | null {
  const local = new LocalGitSource(parseRepoDirs(repoDirs));
  const token = process.env.GITHUB_TOKEN ?? process.env.GH_TOKEN;
  const api = apiUrl ? new GitHubApiSource({ apiUrl, token }) : null;
  if (repoDirs.length === 0 && !api) return null;
  return routeSources(local, api);
}
