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
  /** item id → outcome and the per-item value of the compared metric (absent = no result). */
  items: Map<string, { outcome: string; value: number | null }>;
}

export interface PairTest {
  run: string;
  /** mean(run) − mean(baseline) over all items. */
  diff: number;
  p: number;
  significant: boolean;
}

export interface CompareRow {
  id: string;
  cells: { outcome: string | null; value: number }[];
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
    return { run: r.id, diff, p, significant: Number.isFinite(p) && p < alpha };
  });
  const rows = ids.map((id, k) => {
    const cells = runs.map((r, j) => ({ outcome: r.items.get(id)?.outcome ?? null, value: cols[j]![k]! }));
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
