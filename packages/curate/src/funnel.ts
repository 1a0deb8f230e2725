/**
 * The curation funnel for one repository: every rule is a named step, applied in a fixed order, and
 * the funnel records how many issues (then pairs) each step removed and which ones. Pure apart from
 * the optional comment/string-only check, which is injected.
 * @module
 */
import type { Comment, CrossRef, FixPair, IssueEvent, PrFile, RawEntry } from '@faun/schema';
import { humanParticipants, isBot } from './bots.ts';
import {
  changedFileCount,
  changedFiles,
  type FilterConfig,
  hasExternalLink,
  isMarkedDuplicate,
  isMerged,
  isNonFunctional,
  isShortBody,
  isTooLarge,
  normalizedText,
  targetsDefaultBranch,
} from './filters.ts';
import { type Agreement, agreement, findLinks, isFixCandidate, type LinkCandidate } from './pairing.ts';

/** Funnel step names, in the order they run. */
export const ISSUE_STEPS = [
  'botAuthored',
  'shortBody',
  'tooLarge',
  'duplicate',
  'manyEvents',
  'externalLink',
  'singleHumanParticipant',
] as const;
export const PAIR_STEPS = [
  'unpaired',
  'notMerged',
  'notDefaultBranch',
  'notOneToOne',
  'multiFile',
  'docsOrTestOnly',
  'commentOrStringOnly',
] as const;
export const STEPS = [...ISSUE_STEPS, ...PAIR_STEPS, 'semantic'] as const;
export type StepName = (typeof STEPS)[number];

/** One line of the funnel table. */
export interface FunnelRow {
  repo: string;
  step: StepName;
  /** Position of the step (0-based), for stable ordering. */
  order: number;
  /** What the step counts: issues before pairing, (issue, PR) pairs after. */
  unit: 'issue' | 'pair';
  input: number;
  removed: number;
  output: number;
  /** The step could not run (e.g. no LLM, no file source) and removed nothing. */
  skipped: boolean;
}

/** What a step removed: the issue number, and the PR for pair steps. */
export interface Removed {
  issue: number;
  pr: number | null;
}

/** A crawled repository's raw records. */
export interface RepoData {
  repo: string;
  entries: RawEntry[];
  comments: Comment[];
  events: IssueEvent[];
  crossrefs: CrossRef[];
  /** Changed files per PR number, when crawled separately from the entries. */
  prFiles: Map<number, PrFile[]>;
}

/** A surviving fix pair with what the task builders need. */
export interface CuratedPair {
  pair: FixPair;
  issue: RawEntry;
  pr: RawEntry;
  file: PrFile;
}

/** Decides whether a PR's single file change touches only comments/strings; null = cannot tell. */
export type CommentOnlyCheck = (repo: string, pr: RawEntry, file: PrFile) => Promise<boolean | null>;

export interface RepoCuration {
  repo: string;
  rows: FunnelRow[];
  removed: Partial<Record<StepName, Removed[]>>;
  pairs: CuratedPair[];
  links: LinkCandidate[];
  agreement: Agreement;
}

/** Runs the issue and fix-pair steps over one repository. */
export async function curateRepo(
  data: RepoData,
  cfg: FilterConfig,
  commentOnly?: CommentOnlyCheck,
): Promise<RepoCuration> {
  const rows: FunnelRow[] = [];
  const removed: Partial<Record<StepName, Removed[]>> = {};
  const record = (
    step: StepName,
    unit: 'issue' | 'pair',
    input: number,
    gone: Removed[],
    skipped = false,
  ) => {
    removed[step] = gone;
    rows.push({
      repo: data.repo,
      step,
      order: STEPS.indexOf(step),
      unit,
      input,
      removed: gone.length,
      output: input - gone.length,
      skipped,
    });
  };
  const commentsBy = groupBy(data.comments, (c) => c.number);
  const eventsBy = groupBy(data.events, (e) => e.number);
  const entries = [...data.entries].sort((a, b) => a.number - b.number);
  const prs = new Map(entries.filter((e) => e.kind === 'pr').map((e) => [e.number, e]));

  let issues = entries.filter((e) => e.kind === 'issue');
  const issueStep = (step: StepName, drop: (e: RawEntry) => boolean) => {
    const gone = issues.filter(drop);
    record(
      step,
      'issue',
      issues.length,
      gone.map((e) => ({ issue: e.number, pr: null })),
    );
    const set = new Set(gone);
    issues = issues.filter((e) => !set.has(e));
  };
  issueStep('botAuthored', (e) => isBot(e.author, cfg.bots));
  issueStep('shortBody', (e) => isShortBody(e, cfg));
  issueStep('tooLarge', (e) => isTooLarge(e, cfg));
  const seen = new Set<string>();
  issueStep('duplicate', (e) => {
    const comments = (commentsBy.get(e.number) ?? []).map((c) => ({
      body: c.body,
      human: !isBot(c.author, cfg.bots),
    }));
    if (isMarkedDuplicate(e, comments)) return true;
    const key = normalizedText(e);
    if (seen.has(key)) return true;
    seen.add(key);
    return false;
  });
  issueStep('manyEvents', (e) => (eventsBy.get(e.number)?.length ?? 0) > cfg.maxEvents);
  issueStep('externalLink', (e) => hasExternalLink(e, cfg));
  issueStep('singleHumanParticipant', (e) => {
    const stored = commentsBy.get(e.number) ?? [];
    // Comments are crawled only for some issues; when GitHub counts comments the crawl did not store,
    // participation cannot be judged and the issue stays.
    if (stored.length === 0 && e.comments_count > 0) return false;
    const commenters = stored.map((c) => c.author);
    return humanParticipants(e.author, commenters, cfg.bots).length < 2;
  });

  const links = findLinks(data.repo, data.entries, data.crossrefs);
  const candidates = links.filter(isFixCandidate);
  const alive = new Set(issues.map((e) => e.number));
  const paired = new Set(candidates.map((c) => c.issue));
  const unpaired = issues.filter((e) => !paired.has(e.number));
  record(
    'unpaired',
    'issue',
    issues.length,
    unpaired.map((e) => ({ issue: e.number, pr: null })),
  );
  let pairs = candidates.filter((c) => alive.has(c.issue));
  const pairStep = async (step: StepName, drop: (c: LinkCandidate) => boolean | Promise<boolean>) => {
    const gone: LinkCandidate[] = [];
    for (const c of pairs) if (await drop(c)) gone.push(c);
    record(
      step,
      'pair',
      pairs.length,
      gone.map((c) => ({ issue: c.issue, pr: c.pr })),
    );
    const set = new Set(gone);
    pairs = pairs.filter((c) => !set.has(c));
  };
  const prOf = (c: LinkCandidate) => prs.get(c.pr) as RawEntry;
  const mergedToDefault = (c: LinkCandidate) => isMerged(prOf(c)) && targetsDefaultBranch(prOf(c));
  await pairStep('notMerged', (c) => !isMerged(prOf(c)));
  await pairStep('notDefaultBranch', (c) => !targetsDefaultBranch(prOf(c)));
  // One-to-one over every candidate whose PR was merged into the default branch, including pairs whose
  // issue an earlier filter removed: a PR that fixes two issues is not a clean pair either way.
  const qualifying = candidates.filter(mergedToDefault);
  const perIssue = countBy(qualifying, (c) => c.issue);
  const perPr = countBy(qualifying, (c) => c.pr);
  await pairStep('notOneToOne', (c) => (perIssue.get(c.issue) ?? 0) > 1 || (perPr.get(c.pr) ?? 0) > 1);
  const filesOf = (c: LinkCandidate) => changedFiles(prOf(c), data.prFiles.get(c.pr));
  await pairStep('multiFile', (c) => changedFileCount(prOf(c), data.prFiles.get(c.pr)) !== 1);
  await pairStep('docsOrTestOnly', (c) => {
    const f = filesOf(c)[0];
    return f ? isNonFunctional(f.filename, cfg) : false;
  });
  let undecided = 0;
  const before = pairs.length;
  await pairStep('commentOrStringOnly', async (c) => {
    const f = filesOf(c)[0];
    const verdict = f && commentOnly ? await commentOnly(data.repo, prOf(c), f) : null;
    if (verdict === null) undecided++;
    return verdict === true;
  });
  const last = rows[rows.length - 1];
  if (last && before > 0 && undecided === before) last.skipped = true;
  if (last && before === 0 && !commentOnly) last.skipped = true;

  const issueBy = new Map(entries.map((e) => [e.number, e]));
  const curated: CuratedPair[] = [];
  for (const c of pairs) {
    const file = filesOf(c)[0];
    const issue = issueBy.get(c.issue);
    if (!file || !issue) continue;
    curated.push({
      pair: { v: 1, repo: data.repo, issue: c.issue, pr: c.pr, evidence: c.evidence },
      issue,
      pr: prOf(c),
      file,
    });
  }
  return { repo: data.repo, rows, removed, pairs: curated, links, agreement: agreement(links) };
}

function groupBy<T>(items: T[], key: (t: T) => number): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

function countBy<T>(items: T[], key: (t: T) => number): Map<number, number> {
  const m = new Map<number, number>();
  for (const it of items) m.set(key(it), (m.get(key(it)) ?? 0) + 1);
  return m;
}

/** Sums per-repository rows into `total` rows (repo = '(total)'), one per step. */
export function totalRows(rows: FunnelRow[]): FunnelRow[] {
  const by = new Map<StepName, FunnelRow>();
  for (const r of rows) {
    const t = by.get(r.step);
    if (!t) by.set(r.step, { ...r, repo: '(total)' });
    else {
      t.input += r.input;
      t.removed += r.removed;
      t.output += r.output;
      t.skipped &&= r.skipped;
    }
  }
  return [...by.values()].sort((a, b) => a.order - b.order);
}

/** Renders funnel rows as an aligned text table (per repository, then the total). */
export function formatFunnel(rows: FunnelRow[]): string {
  const all = [...rows].sort((a, b) => a.repo.localeCompare(b.repo) || a.order - b.order);
  const body = [...all, ...totalRows(rows)].map((r) => [
    r.repo,
    r.step,
    r.unit,
    String(r.input),
    String(r.removed),
    String(r.output),
    r.skipped ? 'skipped' : '',
  ]);
  const head = ['repo', 'step', 'unit', 'in', 'removed', 'out', 'note'];
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (i >= 3 && i <= 5 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [fmt(head), ...body.map(fmt)].join('\n');
}
