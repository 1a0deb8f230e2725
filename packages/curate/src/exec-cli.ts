/**
 * The `exec` task of `faun build`: writes `exec.swebench.jsonl` (SWE-bench rows), `exec.msb.jsonl`
 * (Multi-SWE-bench rows) and `exec.funnel.json` (counts and every skip with its reason) into `--out`.
 * @module
 */
import { join } from 'node:path';
import { type CommandContext, parseRepoDirs, UsageError } from '@faun/kit';
import {
  type ExecutionInstance,
  type Language,
  stableStringify,
  toJsonlLine,
  writeFileAtomic,
} from '@faun/schema';
import { buildExec, type CommitRef, commitsFromStore, type ExecBuild, readCommits } from './exec-git.ts';
import type { SplitRule } from './exec-split.ts';
import { LocalGitSource } from './source.ts';
import type { CurateStore } from './store.ts';

/** The funnel of an exec build: commits in, instances out, and the reason of each skip. */
export interface ExecFunnel {
  commits: number;
  instances: number;
  skipped: ExecBuild['skipped'];
  reasons: Record<string, number>;
}

/** Whether faun has an environment spec for `repo` in `language` (a repository spec or the language default). */
async function specCheck(): Promise<(repo: string, language: Language) => boolean> {
  const { specFor } = await import('@faun/harness');
  return (repo, language) =>
    specFor({ repo, language, version: null } as unknown as ExecutionInstance) !== null;
}

/** Builds and writes the exec rows; `store` is used when no `--commits` file is given. */
export async function buildExecTask(
  ctx: CommandContext,
  store: CurateStore | null,
  signal: AbortSignal,
): Promise<ExecFunnel & { written: Record<string, number> }> {
  const o = ctx.opts;
  const values = (o.repoDir as string[] | undefined) ?? [];
  const source = new LocalGitSource(parseRepoDirs(values));
  const names = values.map((v) => v.slice(0, v.indexOf('=')).trim());
  let refs: CommitRef[];
  let skipped: ExecBuild['skipped'] = [];
  if (typeof o.commits === 'string') refs = await readCommits(o.commits, names);
  else if (store) {
    const limit = typeof o.limit === 'number' ? o.limit : Number.POSITIVE_INFINITY;
    ({ refs, skipped } = await commitsFromStore(store, limit));
  } else
    throw new UsageError(
      '--tasks exec needs --commits FILE (with --repo-dir) or --db FILE (a curated store)',
    );
  if (!values.length)
    throw new UsageError('--tasks exec reads the commits in local clones: pass --repo-dir owner/repo=PATH');
  const progress = ctx.progress({ label: 'exec', total: refs.length });
  const built = await buildExec(refs, source, {
    rule: (o.testSplit as SplitRule | undefined) ?? 'dirs',
    hasSpec: await specCheck(),
    versionFor: (await import('@faun/harness')).versionForPr,
    onCommit: (id) => progress.tick(1, id),
    signal,
  });
  progress.done();
  const all = [...skipped, ...built.skipped];
  const reasons: Record<string, number> = {};
  for (const s of all) reasons[s.reason] = (reasons[s.reason] ?? 0) + 1;
  const funnel: ExecFunnel = {
    commits: refs.length + skipped.length,
    instances: built.swebench.length,
    skipped: all,
    reasons,
  };
  const out = String(o.out);
  if (!signal.aborted) {
    await writeFileAtomic(join(out, 'exec.swebench.jsonl'), built.swebench.map(toJsonlLine).join(''));
    await writeFileAtomic(join(out, 'exec.msb.jsonl'), built.msb.map(toJsonlLine).join(''));
    await writeFileAtomic(join(out, 'exec.funnel.json'), `${stableStringify(funnel, 2)}\n`);
  }
  ctx.log(
    `exec: ${funnel.instances} instances from ${funnel.commits} commits → ${join(out, 'exec.swebench.jsonl')}, ${join(out, 'exec.msb.jsonl')}`,
  );
  for (const [r, n] of Object.entries(reasons).sort((a, b) => b[1] - a[1])) ctx.log(`  skipped ${n}× ${r}`);
  return {
    ...funnel,
    written: { 'exec.swebench.jsonl': built.swebench.length, 'exec.msb.jsonl': built.msb.length },
  };
}
