/**
 * Run comparison as pure functions: per-item values of two or more runs on one dataset, score deltas
 * against the first run, the paired bootstrap test (@faun/metrics' `pairedBootstrapP`, the one the
 * paper tables use) and the items the runs disagree on.
 */
import { pairedBootstrapP } from '@faun/metrics';

/** The seed and resamples of every comparison (fixed, so a page always shows the same p-value). */
export const COMPARE_SEED = 20240;
export const COMPARE_RESAMPLES = 2000;

export interface RunValues {
  id: string;
  model: string;
  /** item id → outcome, the per-item value of the compared metric and whether it solved the item. */
  items: Map<string, { outcome: string; value: number | null; solved?: boolean }>;
}

export interface PairTest {
  run: string;
  /** mean(run) − mean(baseline) over all items. */
  diff: number;
  p: number;
  /** p < alpha, with enough differing items for that to mean anything (see {@link minDiffering}). */
  significant: boolean;
  /** Items on which the two runs differ. */
  differing: number;
}

/**
 * The fewest differing items with which a paired test can reach `alpha` at all: an exact sign-flip test
 * over k differing items cannot go below p = 2^(1−k), so 6 items for 0.05. A bootstrap over 2 items can
 * print p = 0; it is not evidence, and is never marked significant.
 */
export function minDiffering(alpha: number): number {
  return Math.ceil(1 - Math.log2(alpha) + 1e-9);
}

export interface CompareRow {
  id: string;
  cells: { outcome: string | null; value: number; solved: boolean }[];
  /** value(run i) − value(baseline), per run after the first. */
  deltas: number[];
  /** The runs differ on this item: pass vs not for binary metrics, a spread ≥ `threshold` otherwise. */
  disagree: boolean;
  spread: number;
}

export interface Comparison {
  ids: string[];
  means: number[];
  tests: PairTest[];
  rows: CompareRow[];
  binary: boolean;
}

/** Compares `runs` (the first is the baseline) over `itemIds`; a missing value counts 0, as in scoring. */
export function compareRuns(
  runs: RunValues[],
  itemIds: string[],
  o: { binary: boolean; threshold?: number; alpha?: number } = { binary: false },
): Comparison {
  const threshold = o.threshold ?? 0.1;
  const alpha = o.alpha ?? 0.05;
  const ids = [...itemIds].sort();
  const cols = runs.map((r) => ids.map((id) => r.items.get(id)?.value ?? 0));
  const means = cols.map((c) => (c.length ? c.reduce((a, b) => a + b, 0) / c.length : Number.NaN));
  const base = cols[0] ?? [];
  const tests = runs.slice(1).map((r, i) => {
    const { diff, p } = pairedBootstrapP(cols[i + 1]!, base, COMPARE_SEED, COMPARE_RESAMPLES);
    const differing = cols[i + 1]!.filter((v, k) => v !== base[k]).length;
    const significant = Number.isFinite(p) && p < alpha && differing >= minDiffering(alpha);
    return { run: r.id, diff, p, significant, differing };
  });
  const rows = ids.map((id, k) => {
    const cells = runs.map((r, j) => ({
      outcome: r.items.get(id)?.outcome ?? null,
      value: cols[j]![k]!,
      solved: r.items.get(id)?.solved ?? false,
    }));
    const vals = cells.map((c) => c.value);
    const spread = Math.max(...vals) - Math.min(...vals);
    const disagree = o.binary ? new Set(vals.map((v) => v >= 1)).size > 1 : spread >= threshold;
    return { id, cells, deltas: vals.slice(1).map((v) => v - (vals[0] ?? 0)), disagree, spread };
  });
  return { ids: runs.map((r) => r.id), means, tests, rows, binary: o.binary };
}

/** The disagreement list: biggest spread first, then by id. */
export function disagreements(c: Comparison): CompareRow[] {
  return c.rows.filter((r) => r.disagree).sort((a, b) => b.spread - a.spread || (a.id < b.id ? -1 : 1));
}

/** A result's per-item value: 1/0 for execution (pass) and FL (exact match), else the metric. */
export function itemValue(
  task: string,
  metric: string,
  r: { outcome: string; scores: Record<string, number> },
): number | null {
  if (task === 'exec') return r.outcome === 'pass' ? 1 : 0;
  const v = r.scores[metric];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/** Which items the side-by-side view lists: all, where the runs disagree, none solved, only run i solved. */
export type CompareView =
  | { kind: 'all' }
  | { kind: 'disagree' }
  | { kind: 'all-failed' }
  | { kind: 'only'; run: number };

/** Reads `?show=` (`all`, `disagree`, `all-failed`, `only-<i>` with i the run's position from 0). */
export function parseView(v: string | undefined, runs: number): CompareView {
  if (v === 'disagree' || v === 'all-failed') return { kind: v };
  const m = /^only-(\d)$/.exec(v ?? '');
  if (m && Number(m[1]) < runs) return { kind: 'only', run: Number(m[1]) };
  return { kind: 'all' };
}

/** The rows of `c` the view keeps, in item order. */
export function viewRows(c: Comparison, view: CompareView): CompareRow[] {
  switch (view.kind) {
    case 'all':
      return c.rows;
    case 'disagree':
      return c.rows.filter((r) => r.disagree);
    case 'all-failed':
      return c.rows.filter((r) => r.cells.every((x) => !x.solved));
    case 'only':
      return c.rows.filter((r) => r.cells.every((x, i) => x.solved === (i === view.run)));
  }
}

/**
 * Whether a result solved its item: a pass for FL and execution, the gold file exactly for CE (file EM),
 * and for QA — which has no pass mark — a compared metric of at least 0.5.
 */
export function solvedOf(
  task: string,
  r: { outcome: string; scores: Record<string, number> },
  value: number | null,
): boolean {
  if (task === 'exec' || task === 'fl') return r.outcome === 'pass';
  if (task === 'ce') return r.scores.file_em === 1;
  return value !== null && value >= 0.5;
}
