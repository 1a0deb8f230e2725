/**
 * Connections to sibling packages, loaded lazily and checked structurally so curation keeps working
 * (with the step marked skipped) when one of them is not available: the model provider for the
 * semantic check (@faun/models) and the comment/string-only test (@faun/syntax).
 * @module
 */
import type { CommentOnlyCheck } from './funnel.ts';
import { prFileTexts } from './patch.ts';
import type { Generate } from './semantic.ts';
import { GitHubApiSource, LocalGitSource, parseRepoDirs, type RepoSource, routeSources } from './source.ts';

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

/**
 * The comment/string-only check through @faun/syntax (tree-sitter; Python, Java, JavaScript,
 * TypeScript, Go), reading files from `source`. Undefined (step skipped) when there is no source;
 * null verdicts (unsupported language, unreadable file, grammar failure) keep the pair.
 */
export async function syntaxCommentOnly(source: RepoSource | null): Promise<CommentOnlyCheck | undefined> {
  if (!source) return undefined;
  const syntax = await import('@faun/syntax');
  return async (repo, pr, file) => {
    const lang = syntax.detectLanguage(file.filename);
    if (!lang) return null;
    const texts = await prFileTexts(source, repo, pr, file);
    if (!texts) return null;
    try {
      await syntax.initSyntax([lang]);
      return syntax.isCommentOrStringOnlyChange(texts.before, texts.after, lang);
    } catch {
      return null;
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
