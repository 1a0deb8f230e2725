/**
 * Breakdowns of a run's items as pure functions: per repository and per language (the SWE-bench and
 * Multi-SWE-bench leaderboards' tables), and the resolved rate over the instances' creation dates (a
 * contamination view: a model that saw the fixes in training does better on older instances).
 */
import type { ItemRow } from './items.ts';

export interface Group {
  key: string;
  /** Items in the group. */
  n: number;
  /** The group's mean of the metric (missing values count 0, as in scoring), or its resolved rate. */
  value: number;
  /** Items whose output could not be parsed. */
  unparsed: number;
}

/** The per-item value: 1/0 for resolved (`metric` null), else the metric (missing → 0). */
const itemValueOf = (r: ItemRow, metric: string | null) =>
  metric === null ? (r.outcome === 'pass' ? 1 : 0) : (r.scores[metric] ?? 0);

function groups(rows: ItemRow[], keyOf: (r: ItemRow) => string | null, metric: string | null): Group[] {
  const acc = new Map<string, Group>();
  for (const r of rows) {
    const key = keyOf(r);
    if (key === null) continue;
    const g = acc.get(key) ?? { key, n: 0, value: 0, unparsed: 0 };
    g.n++;
    g.value += itemValueOf(r, metric);
    if (r.unparsed) g.unparsed++;
    acc.set(key, g);
  }
  return [...acc.values()].map((g) => ({ ...g, value: g.n ? g.value / g.n : 0 }));
}

/** Per repository or language, most items first (then by name). */
export function breakdown(rows: ItemRow[], by: 'repo' | 'language', metric: string | null): Group[] {
  return groups(rows, (r) => r[by] || null, metric).sort((a, b) => b.n - a.n || a.key.localeCompare(b.key));
}

/**
 * The resolved rate (or mean metric) per creation period, oldest first: months, or quarters when the
 * dates span more than 12 months. Items without a date are left out.
 */
export function byCreation(rows: ItemRow[], metric: string | null): Group[] {
  const months = rows
    .map((r) => r.created?.slice(0, 7))
    .filter((m): m is string => !!m && /^\d{4}-\d{2}$/.test(m));
  if (months.length === 0) return [];
  const sorted = [...new Set(months)].sort();
  const span =
    (Number(sorted.at(-1)!.slice(0, 4)) - Number(sorted[0]!.slice(0, 4))) * 12 +
    Number(sorted.at(-1)!.slice(5)) -
    Number(sorted[0]!.slice(5));
  const period = (m: string) => (span >= 12 ? `${m.slice(0, 4)}-Q${Math.ceil(Number(m.slice(5)) / 3)}` : m);
  return groups(
    rows,
    (r) => {
      const m = r.created?.slice(0, 7);
      return m && /^\d{4}-\d{2}$/.test(m) ? period(m) : null;
    },
    metric,
  ).sort((a, b) => a.key.localeCompare(b.key));
}
