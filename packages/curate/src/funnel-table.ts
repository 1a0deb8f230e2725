/**
 * Funnel rows summed over repositories and rendered as text: the step table (with the number of
 * undecided items in its note column) and, below it, the undecided items per reason.
 * @module
 */
import { type FunnelRow, undecidedCount } from '@faun/schema';

/** Counts each key (keys sorted, for stable output). */
export function tally(keys: readonly string[]): Record<string, number> {
  const m: Record<string, number> = {};
  for (const k of [...keys].sort()) m[k] = (m[k] ?? 0) + 1;
  return m;
}

/** Sums per-repository rows into `total` rows (repo = '(total)'), one per step. */
export function totalRows(rows: FunnelRow[]): FunnelRow[] {
  const by = new Map<string, FunnelRow>();
  for (const r of rows) {
    const t = by.get(r.step);
    if (!t) by.set(r.step, { ...r, repo: '(total)', undecided: { ...r.undecided } });
    else {
      t.input += r.input;
      t.removed += r.removed;
      t.output += r.output;
      t.skipped &&= r.skipped;
      for (const [reason, n] of Object.entries(r.undecided))
        t.undecided[reason] = (t.undecided[reason] ?? 0) + n;
    }
  }
  return [...by.values()].sort((a, b) => a.order - b.order);
}

function table(head: string[], body: string[][], numeric: (i: number) => boolean): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const fmt = (cells: string[]) =>
    cells
      .map((c, i) => (numeric(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [fmt(head), ...body.map(fmt)];
}

/**
 * Renders funnel rows as an aligned text table (per repository, then the total), followed by the
 * items each step could not decide about, per reason (`could not decide (kept): none` when none).
 */
export function formatFunnel(rows: FunnelRow[]): string {
  const all = [
    ...[...rows].sort((a, b) => a.repo.localeCompare(b.repo) || a.order - b.order),
    ...totalRows(rows),
  ];
  const note = (r: FunnelRow) => {
    const n = undecidedCount(r);
    return [r.skipped ? 'skipped' : '', n ? `${n} undecided` : ''].filter(Boolean).join('; ');
  };
  const steps = table(
    ['repo', 'step', 'unit', 'in', 'removed', 'out', 'note'],
    all.map((r) => [r.repo, r.step, r.unit, String(r.input), String(r.removed), String(r.output), note(r)]),
    (i) => i >= 3 && i <= 5,
  );
  const reasons = all.flatMap((r) =>
    Object.entries(r.undecided).map(([reason, n]) => [r.repo, r.step, reason, String(n)]),
  );
  if (reasons.length === 0) return [...steps, '', 'could not decide (kept): none'].join('\n');
  return [
    ...steps,
    '',
    'could not decide (kept), per reason:',
    ...table(['repo', 'step', 'reason', 'items'], reasons, (i) => i === 3).map((l) => `  ${l}`),
  ].join('\n');
}
