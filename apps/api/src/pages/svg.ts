/** Charts as SVG built on the server: horizontal bars with optional confidence whiskers, and columns. */
import { esc, fmt, Safe } from './h.ts';

export interface Bar {
  label: string;
  value: number;
  lo?: number | null;
  hi?: number | null;
  href?: string;
}

/** A "nice" axis maximum and step (1, 2 or 5 × 10^k) covering `max` in about four ticks. */
export function niceAxis(max: number, integer = false): { max: number; step: number } {
  if (!(max > 0)) return { max: 1, step: integer ? 1 : 0.25 };
  const raw = max / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const steps = integer ? [1, 2, 5, 10] : [1, 2, 2.5, 5, 10];
  let step = (steps.find((m) => m * mag >= raw) ?? 10) * mag;
  if (integer) step = Math.max(1, Math.round(step));
  return { max: Math.ceil(max / step - 1e-9) * step, step };
}

const PALETTE = ['#2f5fc4', '#1b7a58', '#a3541a', '#7040b0', '#b0305c', '#4d7a1f'];

/** Horizontal bars (one per row) on a shared axis from 0 to `max`, with CI whiskers when given. */
export function barChart(
  bars: Bar[],
  opts: { max?: number; digits?: number; title: string; width?: number },
): Safe {
  const width = opts.width ?? 720;
  const labelW = 200;
  const valueW = bars.some((b) => b.lo != null) ? 190 : 70;
  const rowH = 28;
  const plotW = width - labelW - valueW - 20;
  const axisSpec = niceAxis(
    opts.max ?? Math.max(1e-9, ...bars.map((b) => Math.max(b.value, b.hi ?? 0))),
    opts.digits === 0,
  );
  const max = axisSpec.max;
  const x = (v: number) => labelW + Math.max(0, Math.min(1, v / max)) * plotW;
  const height = bars.length * rowH + 34;
  const ticks: number[] = [];
  for (let t = 0; t <= max + 1e-9; t += axisSpec.step) ticks.push(t);
  const rows = bars.map((b, i) => {
    const y = 10 + i * rowH;
    const color = PALETTE[i % PALETTE.length];
    const whisker =
      b.lo != null && b.hi != null
        ? `<line x1="${x(b.lo)}" x2="${x(b.hi)}" y1="${y + 10}" y2="${y + 10}" stroke="#1d2733" stroke-width="1.5"/>` +
          `<line x1="${x(b.lo)}" x2="${x(b.lo)}" y1="${y + 5}" y2="${y + 15}" stroke="#1d2733" stroke-width="1.5"/>` +
          `<line x1="${x(b.hi)}" x2="${x(b.hi)}" y1="${y + 5}" y2="${y + 15}" stroke="#1d2733" stroke-width="1.5"/>`
        : '';
    const label = esc(b.label.length > 28 ? `${b.label.slice(0, 27)}…` : b.label);
    const text = b.href ? `<a href="${esc(b.href)}">${label}</a>` : label;
    const ci = b.lo != null && b.hi != null ? ` [${fmt(b.lo, 2)}, ${fmt(b.hi, 2)}]` : '';
    return (
      `<g class="bar"><title>${esc(b.label)}: ${fmt(b.value, opts.digits ?? 3)}${ci}</title>` +
      `<text x="${labelW - 8}" y="${y + 14}" text-anchor="end" class="lbl">${text}</text>` +
      `<rect x="${labelW}" y="${y + 2}" width="${Math.max(1, x(b.value) - labelW)}" height="16" rx="3" fill="${color}" opacity="0.85"/>` +
      whisker +
      `<text x="${width - valueW + 4}" y="${y + 14}" class="val">${fmt(b.value, opts.digits ?? 3)}${ci}</text></g>`
    );
  });
  const axisY = 10 + bars.length * rowH;
  const axis = ticks
    .map(
      (t) =>
        `<line x1="${x(t)}" x2="${x(t)}" y1="6" y2="${axisY}" stroke="#e3e7ee"/>` +
        `<text x="${x(t)}" y="${axisY + 16}" text-anchor="middle" class="tick">${fmt(t, Number.isInteger(axisSpec.step) ? 0 : 2)}</text>`,
    )
    .join('');
  return new Safe(
    // a chart whose bars are links is a group of links, not an image (an image hides its children)
    `<svg class="chart" role="${bars.some((b) => b.href) ? 'group' : 'img'}" aria-label="${esc(opts.title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">` +
      `<style>.lbl{font:13px system-ui,sans-serif;fill:#1d2733}.val,.tick{font:12px ui-monospace,monospace;fill:#4a5462}a{fill:#2456b8}</style>` +
      `${axis}${rows.join('')}</svg>`,
  );
}

/** Vertical columns with labels underneath (histograms, outcome counts, rates per period). */
export function columnChart(
  cols: { label: string; value: number; color?: string; note?: string }[],
  opts: { title: string; width?: number; max?: number; format?: (v: number) => string },
): Safe {
  const width = opts.width ?? 560;
  const height = 200;
  const pad = 30;
  const n = Math.max(1, cols.length);
  const slot = (width - 2 * pad) / n;
  const max = opts.max ?? Math.max(1, ...cols.map((c) => c.value));
  const show = opts.format ?? ((v: number) => String(v));
  const plotH = height - 60;
  const bars = cols
    .map((c, i) => {
      const hgt = (Math.min(c.value, max) / max) * plotH;
      const xx = pad + i * slot + slot * 0.15;
      const y = 20 + plotH - hgt;
      return (
        `<g><title>${esc(c.label)}: ${esc(show(c.value))}${c.note ? ` (${esc(c.note)})` : ''}</title>` +
        `<rect x="${xx}" y="${y}" width="${slot * 0.7}" height="${Math.max(hgt, c.value > 0 ? 1 : 0)}" rx="3" fill="${c.color ?? PALETTE[0]}"/>` +
        `<text x="${xx + slot * 0.35}" y="${y - 5}" text-anchor="middle" class="val">${esc(show(c.value))}</text>` +
        `<text x="${xx + slot * 0.35}" y="${height - 22}" text-anchor="middle" class="lbl">${esc(c.label)}</text>` +
        (c.note
          ? `<text x="${xx + slot * 0.35}" y="${height - 6}" text-anchor="middle" class="val">${esc(c.note)}</text>`
          : '') +
        '</g>'
      );
    })
    .join('');
  return new Safe(
    `<svg class="chart" role="img" aria-label="${esc(opts.title)}" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">` +
      `<style>.lbl{font:12px system-ui,sans-serif;fill:#1d2733}.val{font:11px ui-monospace,monospace;fill:#4a5462}</style>` +
      `<line x1="${pad}" x2="${width - pad}" y1="${20 + plotH}" y2="${20 + plotH}" stroke="#8a94a3"/>${bars}</svg>`,
  );
}

/** Ten bins over [lo, hi] (the last one closed): the counts of a per-item score histogram. */
export function histogramBins(values: number[], lo = 0, hi = 1): { label: string; value: number }[] {
  const bins = Array.from({ length: 10 }, (_, i) => ({
    label: (lo + ((hi - lo) * i) / 10).toFixed(1),
    value: 0,
  }));
  for (const v of values) {
    if (!Number.isFinite(v)) continue;
    const k = Math.min(9, Math.max(0, Math.floor(((v - lo) / (hi - lo)) * 10)));
    bins[k]!.value++;
  }
  return bins;
}

export const OUTCOME_COLORS: Record<string, string> = {
  pass: '#1b7a58',
  scored: '#2f5fc4',
  fail: '#b3261e',
  error: '#a3541a',
  timeout: '#7040b0',
  skipped: '#5b6675',
};
