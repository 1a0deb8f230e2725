/**
 * `faun build` without the CLI: turn the stored fix pairs into QA / FL / CE items, reading trees and
 * files through a {@link RepoSource}. Items from a pair whose files cannot be read are skipped with the
 * reason (the rest of the build goes on).
 * @module
 */
import type { CeItem, FlItem, QaItem, RawEntry, TaskName } from '@faun/schema';
import { type BotConfig, DEFAULT_BOT_CONFIG } from './bots.ts';
import { changedFiles } from './filters.ts';
import { prFileTexts } from './patch.ts';
import type { RepoSource } from './source.ts';
import { type CurateStore, collect } from './store.ts';
import { buildCe, buildFl, buildQa, itemId, languageOf } from './tasks.ts';

export interface BuiltItems {
  qa: QaItem[];
  fl: FlItem[];
  ce: CeItem[];
  skipped: Array<{ id: string; task: TaskName; reason: string }>;
}

export interface BuildOptions {
  tasks: TaskName[];
  source: RepoSource | null;
  bots?: BotConfig;
  onPair?: (id: string) => void;
  signal?: AbortSignal;
  /** Only the first N pairs (testing). */
  limit?: number;
}

/** Builds the requested task items from every stored pair (sorted by id). */
export async function buildFromStore(store: CurateStore, o: BuildOptions): Promise<BuiltItems> {
  const out: BuiltItems = { qa: [], fl: [], ce: [], skipped: [] };
  const pairs = (await collect(store.pairs()))
    .sort((a, b) => a.repo.localeCompare(b.repo) || a.issue - b.issue || a.pr - b.pr)
    .slice(0, o.limit ?? Number.POSITIVE_INFINITY);
  const byRepo = new Map<string, Map<number, RawEntry>>();
  for (const p of pairs) {
    if (o.signal?.aborted) break;
    let entries = byRepo.get(p.repo);
    if (!entries) {
      entries = new Map((await collect(store.entries({ repo: p.repo }))).map((e) => [e.number, e]));
      byRepo.set(p.repo, entries);
    }
    const id = itemId(p.repo, p.issue);
    const skip = (task: TaskName, reason: string) => out.skipped.push({ id, task, reason });
    const issue = entries.get(p.issue);
    const pr = entries.get(p.pr);
    const file = pr ? changedFiles(pr, await collect(store.prFiles(p.repo, p.pr)))[0] : undefined;
    if (!issue || !pr || !file) {
      for (const t of o.tasks) skip(t, 'issue, PR or changed file missing from the store');
      continue;
    }
    const language = languageOf(file.filename);
    if (o.tasks.includes('qa')) {
      const qa = buildQa(
        issue,
        await collect(store.comments(p.repo, p.issue)),
        language,
        o.bots ?? DEFAULT_BOT_CONFIG,
      );
      if (qa) out.qa.push(qa);
      else skip('qa', 'no maintainer (OWNER/MEMBER/COLLABORATOR) replied');
    }
    const base = pr.pr?.base_sha ?? null;
    const wantsFiles = o.tasks.includes('fl') || o.tasks.includes('ce');
    if (wantsFiles && (!o.source || !base)) {
      for (const t of o.tasks.filter((t) => t !== 'qa'))
        skip(t, !base ? 'the PR has no base commit' : 'no file source (--repo-dir or --api-url)');
    } else if (wantsFiles && o.source && base) {
      const common = {
        id,
        repo: p.repo,
        issueNumber: p.issue,
        title: issue.title,
        body: issue.body ?? '',
        baseCommit: base,
      };
      if (o.tasks.includes('fl')) {
        const r = buildFl({ ...common, tree: await o.source.tree(p.repo, base), goldPath: file.filename });
        if ('item' in r) out.fl.push(r.item);
        else skip('fl', r.skip);
      }
      if (o.tasks.includes('ce')) {
        const texts = await prFileTexts(o.source, p.repo, pr, file);
        if ('unreadable' in texts)
          skip('ce', `cannot read ${file.filename} before/after the PR: ${texts.unreadable}`);
        else {
          const r = buildCe({
            ...common,
            prNumber: p.pr,
            prTitle: pr.title,
            prBody: pr.body ?? '',
            path: file.filename,
            before: texts.before,
            after: texts.after,
          });
          if ('item' in r) out.ce.push(r.item);
          else skip('ce', r.skip);
        }
      }
    }
    o.onPair?.(id);
  }
  return out;
}
