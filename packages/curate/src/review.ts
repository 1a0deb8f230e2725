/**
 * Human review of the semantic check: export the labelled pairs for two reviewers (CSV and JSONL),
 * import their decisions, measure agreement (Cohen's kappa) and keep pairs by a chosen rule.
 * @module
 */
import { InputError, UsageError } from '@faun/kit';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { LlmLabel, SemanticLabel } from './semantic.ts';

/** One line of the review sheet; reviewers fill `reviewer_1` / `reviewer_2` with yes/no. */
export interface ReviewRow {
  repo: string;
  issue: number;
  pr: number;
  issue_title: string;
  issue_url: string;
  pr_url: string;
  llm: LlmLabel;
  llm_reason: string;
  reviewer_1: string;
  reviewer_2: string;
  notes: string;
}

export const REVIEW_COLUMNS: Array<keyof ReviewRow> = [
  'repo',
  'issue',
  'pr',
  'issue_title',
  'issue_url',
  'pr_url',
  'llm',
  'llm_reason',
  'reviewer_1',
  'reviewer_2',
  'notes',
];

/** Builds the blank review sheet, sorted by repository, issue, PR. */
export function reviewRows(labels: SemanticLabel[], titles: Map<string, string>): ReviewRow[] {
  return [...labels]
    .sort((a, b) => a.repo.localeCompare(b.repo) || a.issue - b.issue || a.pr - b.pr)
    .map((l) => ({
      repo: l.repo,
      issue: l.issue,
      pr: l.pr,
      issue_title: titles.get(`${l.repo}#${l.issue}`) ?? '',
      issue_url: `https://github.com/${l.repo}/issues/${l.issue}`,
      pr_url: `https://github.com/${l.repo}/pull/${l.pr}`,
      llm: l.llm,
      llm_reason: l.reason,
      reviewer_1: '',
      reviewer_2: '',
      notes: '',
    }));
}

export function toCsv(rows: ReviewRow[]): string {
  return stringify(rows, { header: true, columns: REVIEW_COLUMNS as string[] });
}

/** Reads a review sheet (CSV with a header, or JSONL objects) into rows. */
export function readReview(text: string, file: string): ReviewRow[] {
  const objects: Array<Record<string, unknown>> = file.endsWith('.jsonl')
    ? text
        .split('\n')
        .filter((l) => l.trim())
        .map((l, i) => {
          try {
            return JSON.parse(l) as Record<string, unknown>;
          } catch (e) {
            throw new InputError(`${file}:${i + 1}: not valid JSON (${(e as Error).message})`);
          }
        })
    : (parse(text, { columns: true, skip_empty_lines: true }) as Array<Record<string, unknown>>);
  return objects.map((o, i) => {
    const line = file.endsWith('.jsonl') ? i + 1 : i + 2;
    const num = (k: string) => {
      const n = Number(o[k]);
      if (!Number.isInteger(n) || n <= 0)
        throw new InputError(`${file}:${line}: ${k}: expected an issue/PR number`);
      return n;
    };
    if (typeof o.repo !== 'string' || !o.repo) throw new InputError(`${file}:${line}: repo: missing`);
    const s = (k: string) => (o[k] == null ? '' : String(o[k]));
    return {
      repo: o.repo,
      issue: num('issue'),
      pr: num('pr'),
      issue_title: s('issue_title'),
      issue_url: s('issue_url'),
      pr_url: s('pr_url'),
      llm: (s('llm') || 'skipped') as LlmLabel,
      llm_reason: s('llm_reason'),
      reviewer_1: s('reviewer_1'),
      reviewer_2: s('reviewer_2'),
      notes: s('notes'),
    };
  });
}

/** A reviewer's cell as a decision: yes/y/1/true/clear/keep → true, no/n/0/false/unclear/drop → false, '' → null. */
export function decision(cell: string, where: string): boolean | null {
  const v = cell.trim().toLowerCase();
  if (v === '') return null;
  if (['yes', 'y', '1', 'true', 'clear', 'keep'].includes(v)) return true;
  if (['no', 'n', '0', 'false', 'unclear', 'drop'].includes(v)) return false;
  throw new InputError(
    `${where}: ${JSON.stringify(cell)} is not a decision — write yes or no (or leave it empty)`,
  );
}

/**
 * Cohen's kappa for two raters over paired binary decisions: (p_o − p_e) / (1 − p_e). When chance
 * agreement is total (both raters always gave the same single answer) it is 1 if they agree, else 0.
 * Null when there are no pairs.
 */
export function cohensKappa(pairs: Array<[boolean, boolean]>): number | null {
  const n = pairs.length;
  if (n === 0) return null;
  let agree = 0;
  let a1 = 0;
  let b1 = 0;
  for (const [a, b] of pairs) {
    if (a === b) agree++;
    if (a) a1++;
    if (b) b1++;
  }
  const po = agree / n;
  const pe = (a1 / n) * (b1 / n) + (1 - a1 / n) * (1 - b1 / n);
  if (pe === 1) return po === 1 ? 1 : 0;
  return (po - pe) / (1 - pe);
}

export const KEEP_RULES = ['both', 'either', 'llm', 'llm+one', 'any-two', 'all'] as const;
export type KeepRule = (typeof KEEP_RULES)[number];

/** Whether a pair is kept under `rule`, from the LLM label and the two reviewers' decisions. */
export function keep(rule: KeepRule, llm: LlmLabel, r1: boolean | null, r2: boolean | null): boolean {
  const l = llm === 'clear';
  const h = (r1 === true ? 1 : 0) + (r2 === true ? 1 : 0);
  switch (rule) {
    case 'both':
      return h === 2;
    case 'either':
      return h >= 1;
    case 'llm':
      return l;
    case 'llm+one':
      return l && h >= 1;
    case 'any-two':
      return h + (l ? 1 : 0) >= 2;
    case 'all':
      return l && h === 2;
  }
}

export function parseKeepRule(v: string): KeepRule {
  if ((KEEP_RULES as readonly string[]).includes(v)) return v as KeepRule;
  throw new UsageError(`--keep-rule ${v}: expected one of ${KEEP_RULES.join(', ')}`);
}

export interface ReviewOutcome {
  rule: KeepRule;
  /** `repo#issue:pr` → kept. */
  kept: Map<string, boolean>;
  reviewed: number;
  /** Kappa between the two reviewers, and between the LLM and each reviewer. */
  kappa: { reviewers: number | null; llmVsReviewer1: number | null; llmVsReviewer2: number | null };
}

export const pairKey = (repo: string, issue: number, pr: number) => `${repo}#${issue}:${pr}`;

/** Applies the keep rule to imported rows and computes the agreement figures. */
export function applyReview(rows: ReviewRow[], rule: KeepRule, file: string): ReviewOutcome {
  const kept = new Map<string, boolean>();
  const both: Array<[boolean, boolean]> = [];
  const l1: Array<[boolean, boolean]> = [];
  const l2: Array<[boolean, boolean]> = [];
  let reviewed = 0;
  rows.forEach((r, i) => {
    const where = `${file}: row ${i + 1} (${r.repo}#${r.issue})`;
    const d1 = decision(r.reviewer_1, `${where}: reviewer_1`);
    const d2 = decision(r.reviewer_2, `${where}: reviewer_2`);
    if (d1 !== null || d2 !== null) reviewed++;
    if (d1 !== null && d2 !== null) both.push([d1, d2]);
    const llm = r.llm === 'clear' ? true : r.llm === 'unclear' ? false : null;
    if (llm !== null && d1 !== null) l1.push([llm, d1]);
    if (llm !== null && d2 !== null) l2.push([llm, d2]);
    kept.set(pairKey(r.repo, r.issue, r.pr), keep(rule, r.llm, d1, d2));
  });
  return {
    rule,
    kept,
    reviewed,
    kappa: { reviewers: cohensKappa(both), llmVsReviewer1: cohensKappa(l1), llmVsReviewer2: cohensKappa(l2) },
  };
}
