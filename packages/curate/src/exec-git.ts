/**
 * `faun build --tasks exec`: execution instances from fix commits read in local clones — from a commits
 * file (offline: `--repo-dir owner/repo=PATH --commits FILE`) or from the store's curated fix pairs (the
 * PR's merge commit). Every commit that gives no instance is a skip with its reason.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { InputError } from '@faun/kit';
import { Language, type RawEntry } from '@faun/schema';
import { type ExecOptions, execRows, type FixCommit, type MsbRow, type SwebenchRow } from './exec.ts';
import type { LocalGitSource } from './source.ts';
import { type CurateStore, collect } from './store.ts';

/** One line of a commits file. */
export interface CommitRef {
  repo: string;
  commit: string;
  pr: number | null;
  problem_statement: string | null;
  language: Language | null;
  issue: { number: number; title: string; body: string } | null;
  where: string;
}

/**
 * Parses a commits file: JSONL rows `{commit|fix_commit|sha, pr|pr_number|number?, repo?, problem_statement?,
 * language?}` or lines `<commit> [pr_number]` (blank lines and `#` comments ignored). `repos` are the
 * `--repo-dir` names; a row without `repo` needs exactly one.
 */
export function parseCommits(text: string, file: string, repos: string[]): CommitRef[] {
  const out: CommitRef[] = [];
  const lines = text.split('\n');
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    const where = `${file}:${i + 1}`;
    if (!line || line.startsWith('#')) continue;
    let row: Record<string, unknown>;
    if (line.startsWith('{')) {
      try {
        row = JSON.parse(line) as Record<string, unknown>;
      } catch (e) {
        throw new InputError(`${where}: not valid JSON (${(e as Error).message})`);
      }
    } else {
      const [commit, pr, extra] = line.split(/\s+/);
      if (extra !== undefined || (pr !== undefined && !/^\d+$/.test(pr)))
        throw new InputError(
          `${where}: expected "<commit> [pr_number]", got ${JSON.stringify(line.slice(0, 80))}`,
        );
      row = { commit, pr: pr === undefined ? undefined : Number(pr) };
    }
    const commit = row.commit ?? row.fix_commit ?? row.sha;
    if (typeof commit !== 'string' || !/^[0-9a-fA-F]{4,40}$/.test(commit))
      throw new InputError(`${where}: commit: expected a commit sha, got ${JSON.stringify(commit)}`);
    const prv = row.pr ?? row.pr_number ?? row.number;
    if (prv !== undefined && prv !== null && !(Number.isInteger(prv) && (prv as number) > 0))
      throw new InputError(`${where}: pr: expected a positive integer, got ${JSON.stringify(prv)}`);
    let repo = typeof row.repo === 'string' ? row.repo : null;
    if (repo === null) {
      if (repos.length !== 1)
        throw new InputError(`${where}: repo: missing, and ${repos.length} --repo-dir values were given`, {
          hint: 'give one --repo-dir, or a "repo": "owner/name" field on each JSONL row',
        });
      repo = repos[0] ?? '';
    }
    const lang = row.language === undefined ? null : Language.safeParse(row.language);
    if (lang && !lang.success)
      throw new InputError(`${where}: language: ${JSON.stringify(row.language)} is not a known language`);
    out.push({
      repo,
      commit,
      pr: (prv as number | undefined) ?? null,
      problem_statement: typeof row.problem_statement === 'string' ? row.problem_statement : null,
      language: lang?.data ?? null,
      issue: null,
      where,
    });
  }
  return out;
}

export async function readCommits(file: string, repos: string[]): Promise<CommitRef[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new InputError(`--commits ${file}: cannot read (${(e as Error).message})`);
  }
  return parseCommits(text, file, repos);
}

export interface ExecBuild {
  swebench: SwebenchRow[];
  msb: MsbRow[];
  skipped: Array<{ id: string; task: 'exec'; reason: string }>;
}

/** Reads each commit in its clone and builds its rows; results sorted by instance id. */
export async function buildExec(
  refs: CommitRef[],
  source: LocalGitSource,
  o: ExecOptions & { onCommit?: (id: string) => void; signal?: AbortSignal } = {},
): Promise<ExecBuild> {
  const out: ExecBuild = { swebench: [], msb: [], skipped: [] };
  const seen = new Map<string, string>();
  const branches = new Map<string, string>();
  for (const r of refs) {
    if (o.signal?.aborted) break;
    const id = `${r.repo}@${r.commit.slice(0, 12)}`;
    const skip = (reason: string) => out.skipped.push({ id, task: 'exec', reason });
    o.onCommit?.(id);
    if (!source.has(r.repo)) {
      skip(`no local clone for ${r.repo} (pass --repo-dir ${r.repo}=PATH)`);
      continue;
    }
    const info = await source.commit(r.repo, r.commit);
    if (!info) {
      skip(`commit ${r.commit} not found in the clone of ${r.repo}`);
      continue;
    }
    const base = info.parents[0];
    const baseKnown = base ? await source.hasCommit(r.repo, base) : false;
    const diff = base && baseKnown ? await source.diff(r.repo, base, info.sha) : '';
    if (diff === null) {
      skip(`git diff ${base?.slice(0, 12)}..${info.sha.slice(0, 12)} failed`);
      continue;
    }
    let ref = branches.get(r.repo);
    if (!ref) branches.set(r.repo, (ref = await source.branch(r.repo)));
    const texts = new Map<string, string | null>();
    if (base)
      for (const m of diff.matchAll(/^diff --git a\/(.*?\.rs) b\/.*$/gm)) {
        const p = m[1] ?? '';
        texts.set(`before:${p}`, await source.file(r.repo, base, p));
        texts.set(`after:${p}`, await source.file(r.repo, info.sha, p));
      }
    const c: FixCommit = {
      repo: r.repo,
      commit: info.sha,
      parents: info.parents,
      baseKnown,
      diff,
      message: info.message,
      created_at: info.date,
      pr: r.pr,
      issue: r.issue,
      problem_statement: r.problem_statement,
      language: r.language,
      ref,
      text: (p, side) => texts.get(`${side}:${p}`) ?? null,
    };
    const built = execRows(c, o);
    if ('skip' in built) {
      skip(built.skip);
      continue;
    }
    const iid = built.swebench.instance_id;
    const prev = seen.get(iid);
    if (prev) {
      skip(`duplicate instance ${iid} (commit ${prev.slice(0, 12)} already gave it)`);
      continue;
    }
    seen.set(iid, info.sha);
    out.swebench.push(built.swebench);
    out.msb.push(built.msb);
  }
  out.swebench.sort((a, b) => a.instance_id.localeCompare(b.instance_id));
  out.msb.sort((a, b) => a.instance_id.localeCompare(b.instance_id));
  return out;
}

/**
 * The store's curated fix pairs as commit refs: the PR's merge commit (its first parent is the base), the
 * paired issue as the problem statement. Pairs that cannot give a commit are returned as skips.
 */
export async function commitsFromStore(
  store: CurateStore,
  limit = Number.POSITIVE_INFINITY,
): Promise<{ refs: CommitRef[]; skipped: ExecBuild['skipped'] }> {
  const refs: CommitRef[] = [];
  const skipped: ExecBuild['skipped'] = [];
  const pairs = (await collect(store.pairs()))
    .sort((a, b) => a.repo.localeCompare(b.repo) || a.issue - b.issue || a.pr - b.pr)
    .slice(0, limit);
  const byRepo = new Map<string, Map<number, RawEntry>>();
  for (const p of pairs) {
    let entries = byRepo.get(p.repo);
    if (!entries) {
      entries = new Map((await collect(store.entries({ repo: p.repo }))).map((e) => [e.number, e]));
      byRepo.set(p.repo, entries);
    }
    const issue = entries.get(p.issue);
    const pr = entries.get(p.pr);
    const id = `${p.repo}#${p.issue}`;
    const sha = pr?.pr?.merge_commit_sha;
    if (!issue || !pr) skipped.push({ id, task: 'exec', reason: 'issue or PR missing from the store' });
    else if (!sha) skipped.push({ id, task: 'exec', reason: 'the PR has no merge commit' });
    else
      refs.push({
        repo: p.repo,
        commit: sha,
        pr: p.pr,
        problem_statement: null,
        language: null,
        issue: { number: issue.number, title: issue.title, body: issue.body ?? '' },
        where: id,
      });
  }
  return { refs, skipped };
}
