/**
 * Execution instances from fix commits (pure): one commit's diff against its first parent becomes a
 * SWE-bench row and a Multi-SWE-bench row, or a skip with its reason. The git reading is in exec-git.ts,
 * the patch split in exec-split.ts.
 * @module
 */
import { MSB, SWEBENCH } from '@faun/harness/benchmarks';
import type { Language } from '@faun/schema';
import { type FileText, type SplitRule, splitPatch } from './exec-split.ts';
import { languageOf } from './tasks.ts';

/** What the builder knows of one fix commit. */
export interface FixCommit {
  repo: string;
  commit: string;
  /** Parents of the commit (first = base). */
  parents: string[];
  /** Whether the first parent's objects are in the clone (a shallow clone may lack them). */
  baseKnown: boolean;
  /** `git diff --no-renames --full-index <first parent> <commit>`. */
  diff: string;
  message: string;
  /** ISO time of the commit (or the PR's creation, from the store). */
  created_at: string;
  pr: number | null;
  /** The issue the fix resolves, when known (from the store or the commits file). */
  issue: { number: number; title: string; body: string } | null;
  /** Given problem statement (commits file); wins over the issue and the commit message. */
  problem_statement: string | null;
  language: Language | null;
  /** The branch the fix landed on (`main` when unknown). */
  ref: string;
  /** File texts on both sides (the Rust `#[cfg(test)]` rule). */
  text?: FileText;
}

export interface SwebenchRow {
  instance_id: string;
  repo: string;
  base_commit: string;
  patch: string;
  test_patch: string;
  problem_statement: string;
  hints_text: string;
  version: string | null;
  environment_setup_commit: string;
  FAIL_TO_PASS: string[];
  PASS_TO_PASS: string[];
  created_at: string;
  language: Language;
  /** The fix commit the row was cut from. */
  fix_commit: string;
}

export interface MsbRow {
  org: string;
  repo: string;
  number: number;
  state: string;
  title: string;
  body: string;
  base: { label: string; ref: string; sha: string };
  resolved_issues: Array<{ number: number; title: string; body: string }>;
  fix_patch: string;
  test_patch: string;
  tag: string;
  number_interval: string;
  lang: Language;
  instance_id: string;
  fix_commit: string;
  created_at: string;
}

export type ExecBuilt = { swebench: SwebenchRow; msb: MsbRow } | { skip: string };

export interface ExecOptions {
  rule?: SplitRule;
  /** Whether faun has an environment spec for the repository in this language. */
  hasSpec?: (repo: string, language: Language) => boolean;
  /** The environment version of the repository's PR (a spec's PR range), written into `version`. */
  versionFor?: (repo: string, pr: number) => string | null;
}

/** The PR number a commit message names: `Merge pull request #N`, or `(#N)` ending the subject (squash). */
export function prFromMessage(message: string): number | null {
  const subject = message.split('\n', 1)[0] ?? '';
  const m = /^Merge pull request #(\d+)/.exec(subject) ?? /\(#(\d+)\)\s*$/.exec(subject);
  return m ? Number(m[1]) : null;
}

/** The language most of the changed code files are in (ties: the first in path order); null when none is known. */
export function dominantLanguage(paths: string[]): Language | null {
  const n = new Map<Language, number>();
  for (const p of [...paths].sort()) {
    const l = languageOf(p);
    if (l !== 'other') n.set(l, (n.get(l) ?? 0) + 1);
  }
  let best: Language | null = null;
  for (const [l, c] of n) if (best === null || c > (n.get(best) ?? 0)) best = l;
  return best;
}

/** Title and body of a problem statement (first line, rest). */
function titleBody(s: string): { title: string; body: string } {
  const nl = s.indexOf('\n');
  return nl < 0
    ? { title: s.trim(), body: '' }
    : { title: s.slice(0, nl).trim(), body: s.slice(nl + 1).trim() };
}

/** One fix commit → both rows, or the reason it cannot be an instance. */
export function execRows(c: FixCommit, o: ExecOptions = {}): ExecBuilt {
  const base = c.parents[0];
  if (!base) return { skip: 'root commit: no parent to diff against' };
  if (!c.baseKnown)
    return {
      skip: `${c.parents.length > 1 ? 'merge' : 'commit'} without first parent in the clone (${base.slice(0, 12)}; shallow clone?)`,
    };
  if (!c.diff.trim()) return { skip: 'empty diff against the first parent' };
  const split = splitPatch(c.diff, { rule: o.rule, text: c.text });
  const kinds = new Set(split.files.map((f) => f.kind));
  if (kinds.size === 1 && kinds.has('binary')) return { skip: 'diff only binary' };
  if (!split.test_patch) return { skip: 'no test changes' };
  if (!split.patch)
    return {
      skip: kinds.has('binary') ? 'no code changes (only binary files besides tests)' : 'no code changes',
    };
  const pr = c.pr ?? prFromMessage(c.message);
  if (pr === null)
    return {
      skip: 'no PR number (give "<commit> <pr_number>" in the commits file, or a message with (#N))',
    };
  const codePaths = split.files.filter((f) => f.kind === 'code').map((f) => f.path);
  const language = c.language ?? dominantLanguage(codePaths);
  if (!language) return { skip: 'repository without spec (no known language among the changed code files)' };
  if (o.hasSpec && !o.hasSpec(c.repo, language))
    return { skip: `repository without spec (${language}: no environment spec for ${c.repo})` };
  const statement =
    c.problem_statement?.trim() ||
    (c.issue ? `${c.issue.title}\n${c.issue.body}`.trim() : '') ||
    c.message.trim();
  if (!statement) return { skip: 'no problem statement (empty commit message and none given)' };
  const [org = '', name = ''] = c.repo.split('/');
  const { title, body } = titleBody(c.message);
  const issue = c.issue ?? { number: pr, ...titleBody(statement) };
  return {
    swebench: {
      instance_id: SWEBENCH.idFor({ org, name, number: pr }),
      repo: c.repo,
      base_commit: base,
      patch: split.patch,
      test_patch: split.test_patch,
      problem_statement: statement,
      hints_text: '',
      version: o.versionFor?.(c.repo, pr) ?? null,
      environment_setup_commit: base,
      FAIL_TO_PASS: [],
      PASS_TO_PASS: [],
      created_at: c.created_at,
      language,
      fix_commit: c.commit,
    },
    msb: {
      org,
      repo: name,
      number: pr,
      state: 'closed',
      title,
      body,
      base: { label: `${org}:${c.ref}`, ref: c.ref, sha: base },
      resolved_issues: [
        c.problem_statement?.trim() ? { number: issue.number, ...titleBody(c.problem_statement) } : issue,
      ],
      fix_patch: split.patch,
      test_patch: split.test_patch,
      tag: '',
      number_interval: '',
      lang: language,
      instance_id: MSB.idFor({ org, name, number: pr }),
      fix_commit: c.commit,
      created_at: c.created_at,
    },
  };
}
