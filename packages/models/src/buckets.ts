/**
 * Length buckets for RQ3 (how performance varies with input length): split items into short /
 * medium / long by their `input_tokens`, at the dataset's terciles unless thresholds are given.
 */

import { quantileSorted as quantile } from '@faun/metrics';

export interface Buckets {
  /** Upper bounds (inclusive) of every bucket but the last, ascending. */
  thresholds: number[];
  labels: string[];
  /** The bucket label of each input value, in input order. */
  assignments: string[];
  counts: Record<string, number>;
}

/**
 * Assigns each value to a bucket. Default thresholds: the 1/3 and 2/3 quantiles of `values`
 * (→ `short`, `medium`, `long`). A value equal to a threshold goes to the lower bucket.
 * With k custom thresholds there are k+1 buckets, labelled `short/medium/long` when k = 2, else
 * `≤t1`, `t1<…≤t2`, …, `>tk`.
 */
export function lengthBuckets(values: readonly number[], thresholds?: readonly number[]): Buckets {
  const sorted = [...values].sort((a, b) => a - b);
  const t = thresholds
    ? [...thresholds].sort((a, b) => a - b)
    : [quantile(sorted, 1 / 3), quantile(sorted, 2 / 3)];
  const labels =
    t.length === 2
      ? ['short', 'medium', 'long']
      : [...t.map((x, i) => (i === 0 ? `≤${x}` : `${t[i - 1]}<…≤${x}`)), `>${t[t.length - 1]}`];
  const counts: Record<string, number> = Object.fromEntries(labels.map((l) => [l, 0]));
  const assignments = values.map((v) => {
    let i = t.findIndex((x) => v <= x);
    if (i < 0) i = t.length;
    const label = labels[i]!;
    counts[label] = (counts[label] ?? 0) + 1;
    return label;
  });
  return { thresholds: t, labels, assignments, counts };
}
