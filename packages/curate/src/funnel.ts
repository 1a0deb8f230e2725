/**
 * The curation funnel for one repository: every rule is a named step, applied in a fixed order, and
 * the funnel records how many issues (then pairs) each step removed and which ones, and which it could
 * not decide about (kept, counted per reason: uncrawled details, unsupported languages, files that do
 * not parse or cannot be read). Pure apart from the optional comment/string-only check, which is
 * injected.
 * @module
 */
import {
  type Comment,
  type CrossRef,
  type FixPair,
  type FunnelRow,
  type IssueEvent,
  type PrFile,
  type RawEntry,
  undecidedCount,
} from '@faun/schema';
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
import { tally } from './funnel-table.ts';
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

export type { FunnelRow } from '@faun/schema';

/** What a step removed: the issue number, and the PR for pair steps. */
export interface Removed {
  issue: number;
  pr: number | null;
}

/** An item a step could not decide about (and kept), with why. */
export interface Undecided extends Removed {
  reason: string;
}

/** A step's verdict on one item: remove it (true), keep it (false), or keep it undecided, with why. */
export type Verdict = boolean | { undecided: string };

/** Reasons given when the funnel itself cannot decide. */
export const UNDECIDED = {
  commentsNotCrawled: 'comments not crawled (GitHub counts more than the store holds)',
  defaultBranchNotCrawled: 'default branch not crawled',
  noFileSource: 'no file source (--repo-dir / --api-url)',
} as const;

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

/** Decides whether a PR's single file change touches only comments/strings, or says why it cannot. */
export type CommentOnlyCheck = (repo: string, pr: RawEntry, file: PrFile) => Promise<Verdict>;

export interface RepoCuration {
  repo: string;
  rows: FunnelRow[];
  removed: Partial<Record<StepName, Removed[]>>;
  /** Per step, the items it could not decide about (also counted per reason in `rows`). */
  undecided: Partial<Record<StepName, Undecided[]>>;
  pairs: CuratedPair[];
  links: LinkCandidate[];
  agreement: Agreement;
}

/** The funnel rows of one repository as its steps run, with what each removed or could not decide. */
class StepLog {
  readonly rows: FunnelRow[] = [];
  readonly removed: Partial<Record<StepName, Removed[]>> = {};
  readonly undecided: Partial<Record<StepName, Undecided[]>> = {};
  constructor(readonly repo: string) {}

  record(step: StepName, unit: 'issue' | 'pair', input: number, gone: Removed[], unsure: Undecided[] = []) {
    this.removed[step] = gone;
    if (unsure.length) this.undecided[step] = unsure;
    this.rows.push({
      repo: this.repo,
      step,
      order: STEPS.indexOf(step),
      unit,
      input,
      removed: gone.length,
      output: input - gone.length,
      skipped: false,
      undecided: tally(unsure.map((u) => u.reason)),
    });
  }

  /** Runs one step over `items` (in order) and records it; returns the items it kept. */
  async step<T>(
    step: StepName,
    unit: 'issue' | 'pair',
    items: T[],
    idOf: (t: T) => Removed,
    drop: (t: T) => Verdict | Promise<Verdict>,
  ): Promise<T[]> {
    const gone: Removed[] = [];
    const unsure: Undecided[] = [];
    const kept: T[] = [];
    for (const t of items) {
      const v = await drop(t);
      if (v === true) gone.push(idOf(t));
      else {
        if (v !== false) unsure.push({ ...idOf(t), reason: v.undecided });
        kept.push(t);
      }
    }
    this.record(step, unit, items.length, gone, unsure);
    return kept;
  }
}

/** The issue steps, in funnel order; returns the issues that pass them all. */
async function issueSteps(log: StepLog, data: RepoData, cfg: FilterConfig, entries: RawEntry[]) {
  const commentsBy = groupBy(data.comments, (c) => c.number);
  const eventsBy = groupBy(data.events, (e) => e.number);
  let issues = entries.filter((e) => e.kind === 'issue');
  const issueStep = async (step: StepName, drop: (e: RawEntry) => Verdict) => {
    issues = await log.step(step, 'issue', issues, (e) => ({ issue: e.number, pr: null }), drop);
  };
  await issueStep('botAuthored', (e) => isBot(e.author, cfg.bots));
  await issueStep('shortBody', (e) => isShortBody(e, cfg));
  await issueStep('tooLarge', (e) => isTooLarge(e, cfg));
  const seen = new Set<string>();
  await issueStep('duplicate', (e) => {
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
  await issueStep('manyEvents', (e) => (eventsBy.get(e.number)?.length ?? 0) > cfg.maxEvents);
  await issueStep('externalLink', (e) => hasExternalLink(e, cfg));
  await issueStep('singleHumanParticipant', (e) => {
    const stored = commentsBy.get(e.number) ?? [];
    // Comments are crawled only for some issues; when GitHub counts comments the crawl did not store,
    // participation cannot be judged and the issue stays.
    if (stored.length === 0 && e.comments_count > 0) return { undecided: UNDECIDED.commentsNotCrawled };
    const commenters = stored.map((c) => c.author);
    return humanParticipants(e.author, commenters, cfg.bots).length < 2;
  });
  return issues;
}

/** What the pair steps read about a candidate: its PR and the PR's changed files. */
interface PairLookups {
  prOf: (c: LinkCandidate) => RawEntry;
  filesOf: (c: LinkCandidate) => PrFile[];
}

/** The fix-pair steps, in funnel order, over `pairs` (of `candidates`); returns the pairs that pass. */
async function pairSteps(
  log: StepLog,
  data: RepoData,
  cfg: FilterConfig,
  candidates: LinkCandidate[],
  start: LinkCandidate[],
  { prOf, filesOf }: PairLookups,
  commentOnly?: CommentOnlyCheck,
) {
  let pairs = start;
  const pairStep = async (step: StepName, drop: (c: LinkCandidate) => Verdict | Promise<Verdict>) => {
    pairs = await log.step(step, 'pair', pairs, (c) => ({ issue: c.issue, pr: c.pr }), drop);
  };
  const mergedToDefault = (c: LinkCandidate) => isMerged(prOf(c)) && targetsDefaultBranch(prOf(c));
  await pairStep('notMerged', (c) => !isMerged(prOf(c)));
  await pairStep('notDefaultBranch', (c) =>
    prOf(c).default_branch
      ? !targetsDefaultBranch(prOf(c))
      : { undecided: UNDECIDED.defaultBranchNotCrawled },
  );
  // One-to-one over every candidate whose PR was merged into the default branch, including pairs whose
  // issue an earlier filter removed: a PR that fixes two issues is not a clean pair either way.
  const qualifying = candidates.filter(mergedToDefault);
  const perIssue = countBy(qualifying, (c) => c.issue);
  const perPr = countBy(qualifying, (c) => c.pr);
  await pairStep('notOneToOne', (c) => (perIssue.get(c.issue) ?? 0) > 1 || (perPr.get(c.pr) ?? 0) > 1);
  // Exactly one changed file, known by name: the later steps and the task builders read that file.
  await pairStep(
    'multiFile',
    (c) => changedFileCount(prOf(c), data.prFiles.get(c.pr)) !== 1 || filesOf(c).length === 0,
  );
  await pairStep('docsOrTestOnly', (c) => isNonFunctional((filesOf(c)[0] as PrFile).filename, cfg));
  await pairStep('commentOrStringOnly', async (c) =>
    commentOnly
      ? await commentOnly(data.repo, prOf(c), filesOf(c)[0] as PrFile)
      : { undecided: UNDECIDED.noFileSource },
  );
  const last = log.rows[log.rows.length - 1];
  // The step did not run at all when it could decide about none of its pairs (or had no checker).
  if (last && (last.input > 0 ? undecidedCount(last) === last.input : !commentOnly)) last.skipped = true;
  return pairs;
}

/** Runs the issue and fix-pair steps over one repository. */
export async function curateRepo(
  data: RepoData,
  cfg: FilterConfig,
  commentOnly?: CommentOnlyCheck,
): Promise<RepoCuration> {
  const log = new StepLog(data.repo);
  const entries = [...data.entries].sort((a, b) => a.number - b.number);
  const prs = new Map(entries.filter((e) => e.kind === 'pr').map((e) => [e.number, e]));
  const issues = await issueSteps(log, data, cfg, entries);

  const links = findLinks(data.repo, data.entries, data.crossrefs);
  const candidates = links.filter(isFixCandidate);
  const alive = new Set(issues.map((e) => e.number));
  const paired = new Set(candidates.map((c) => c.issue));
  const unpaired = issues.filter((e) => !paired.has(e.number));
  log.record(
    'unpaired',
    'issue',
    issues.length,
    unpaired.map((e) => ({ issue: e.number, pr: null })),
  );
  const prOf = (c: LinkCandidate) => prs.get(c.pr) as RawEntry;
  const filesOf = (c: LinkCandidate) => changedFiles(prOf(c), data.prFiles.get(c.pr));
  const start = candidates.filter((c) => alive.has(c.issue));
  const pairs = await pairSteps(log, data, cfg, candidates, start, { prOf, filesOf }, commentOnly);

  const issueBy = new Map(entries.map((e) => [e.number, e]));
  const curated: CuratedPair[] = pairs.map((c) => ({
    pair: { v: 1, repo: data.repo, issue: c.issue, pr: c.pr, evidence: c.evidence },
    issue: issueBy.get(c.issue) as RawEntry,
    pr: prOf(c),
    file: filesOf(c)[0] as PrFile,
  }));
  return {
    repo: data.repo,
    rows: log.rows,
    removed: log.removed,
    undecided: log.undecided,
    pairs: curated,
    links,
    agreement: agreement(links),
  };
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
