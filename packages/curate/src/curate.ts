/**
 * `faun curate` without the CLI: run the funnel over every stored repository, the semantic step
 * (LLM labels and/or imported human review), and store the surviving pairs and the funnel rows.
 * @module
 */
import type { FixPair, SemanticReview } from '@faun/schema';
import type { FilterConfig } from './filters.ts';
import {
  type CommentOnlyCheck,
  type CuratedPair,
  curateRepo,
  type FunnelRow,
  STEPS,
  type Undecided,
} from './funnel.ts';
import { tally } from './funnel-table.ts';
import { type Agreement, sumAgreement } from './pairing.ts';
import {
  applyReview,
  decision,
  type KeepRule,
  pairKey,
  type ReviewOutcome,
  type ReviewRow,
} from './review.ts';
import { type Generate, type SemanticLabel, semanticCheck } from './semantic.ts';
import { type CurateStore, loadRepo, storeRepos } from './store.ts';

export interface CurateOptions {
  filters: FilterConfig;
  commentOnly?: CommentOnlyCheck | undefined;
  /** The LLM for the semantic check (null: step skipped unless a review is imported). */
  generate?: Generate | null;
  model?: string | null;
  /** Imported review sheet and the keep rule. */
  review?: { rows: ReviewRow[]; rule: KeepRule; file: string } | null;
  /** Restrict to these repositories. */
  repos?: string[];
  /** Parallel model calls in the semantic check (default 1). */
  concurrency?: number;
  onRepo?: (repo: string) => void;
  onPair?: () => void;
}

export interface CurateResult {
  rows: FunnelRow[];
  pairs: CuratedPair[];
  /** Every pair that reached the semantic step, with its label. */
  labels: SemanticLabel[];
  agreement: { perRepo: Record<string, Agreement>; total: Agreement };
  review: ReviewOutcome | null;
  removed: Record<string, Record<string, Array<{ issue: number; pr: number | null }>>>;
  /** Per repository and step, the items the step could not decide about, with why. */
  undecided: Record<string, Record<string, Undecided[]>>;
}

/** Why the semantic step could not decide about a pair, or null when it did. */
function semanticUndecided(label: SemanticLabel | undefined, decidedByReview: boolean): string | null {
  if (decidedByReview) return null;
  if (!label || label.llm === 'skipped')
    return 'no model (--semantic-check MODEL) and no review (--review-in)';
  if (label.llm !== 'error') return null;
  return label.reason.startsWith('model call failed') ? 'model call failed' : 'model answer unreadable';
}

/** Runs the whole curation over `store` and writes pairs + funnel back to it. */
export async function curateStore(store: CurateStore, o: CurateOptions): Promise<CurateResult> {
  const repos = o.repos?.length ? o.repos : await storeRepos(store);
  const rows: FunnelRow[] = [];
  const survivors: CuratedPair[] = [];
  const perRepo: Record<string, Agreement> = {};
  const removed: CurateResult['removed'] = {};
  const undecided: CurateResult['undecided'] = {};
  for (const repo of repos) {
    o.onRepo?.(repo);
    const r = await curateRepo(await loadRepo(store, repo), o.filters, o.commentOnly);
    rows.push(...r.rows);
    survivors.push(...r.pairs);
    perRepo[repo] = r.agreement;
    removed[repo] = r.removed as Record<string, Array<{ issue: number; pr: number | null }>>;
    undecided[repo] = r.undecided as Record<string, Undecided[]>;
  }
  const labels = await semanticCheck(survivors, o.generate ?? null, o.model ?? null, o.onPair, o.concurrency);
  const labelOf = new Map(labels.map((l) => [pairKey(l.repo, l.issue, l.pr), l]));
  const review = o.review ? applyReview(o.review.rows, o.review.rule, o.review.file) : null;
  const reviewRow = new Map((o.review?.rows ?? []).map((r) => [pairKey(r.repo, r.issue, r.pr), r]));
  const ranModel = Boolean(o.generate);
  const kept: CuratedPair[] = [];
  const final: FixPair[] = [];
  for (const repo of repos) {
    const mine = survivors.filter((p) => p.pair.repo === repo);
    const gone: Array<{ issue: number; pr: number | null }> = [];
    const unsure: Undecided[] = [];
    for (const p of mine) {
      const key = pairKey(repo, p.pair.issue, p.pair.pr);
      const label = labelOf.get(key);
      const rr = reviewRow.get(key);
      const why = semanticUndecided(label, review !== null);
      if (why) unsure.push({ issue: p.pair.issue, pr: p.pair.pr, reason: why });
      let keepIt = true;
      if (review) keepIt = review.kept.get(key) ?? false;
      else if (ranModel) keepIt = label?.llm === 'clear';
      const semantic: SemanticReview = {
        llm: rr && !ranModel ? rr.llm : (label?.llm ?? 'skipped'),
        reason: rr && !ranModel ? rr.llm_reason : (label?.reason ?? ''),
        model: label?.model ?? null,
        reviewer_1: rr ? decision(rr.reviewer_1, `${o.review?.file}: ${key}: reviewer_1`) : null,
        reviewer_2: rr ? decision(rr.reviewer_2, `${o.review?.file}: ${key}: reviewer_2`) : null,
        rule: review ? review.rule : ranModel ? 'llm' : null,
        kept: keepIt,
      };
      if (keepIt) {
        kept.push(p);
        final.push({ ...p.pair, semantic });
      } else gone.push({ issue: p.pair.issue, pr: p.pair.pr });
    }
    rows.push({
      repo,
      step: 'semantic',
      order: STEPS.indexOf('semantic'),
      unit: 'pair',
      input: mine.length,
      removed: gone.length,
      output: mine.length - gone.length,
      skipped: !review && !ranModel,
      undecided: tally(unsure.map((u) => u.reason)),
    });
    (removed[repo] ??= {}).semantic = gone;
    if (unsure.length) (undecided[repo] ??= {}).semantic = unsure;
  }
  rows.sort((a, b) => a.repo.localeCompare(b.repo) || a.order - b.order);
  // A fresh run replaces the stored pairs of every curated repository, also those left with none.
  const withPairs = new Set(final.map((p) => p.repo));
  for (const repo of repos)
    if (!withPairs.has(repo)) await store.all?.('DELETE FROM pairs WHERE repo = $1', [repo]);
  await store.putPairs(final, { replace: true });
  await store.putFunnel(rows);
  return {
    rows,
    pairs: kept,
    labels,
    agreement: { perRepo, total: sumAgreement(Object.values(perRepo)) },
    review,
    removed,
    undecided,
  };
}
