/**
 * The RQ3 figure: grouped bars (one group per length bucket, one bar per model) with 95% interval
 * whiskers, drawn as SVG by hand (deterministic bytes) and rasterized to PNG with resvg.
 */
import type { Table } from './model.ts';

const PALETTE = ['#4C78A8', '#F58518', '#54A24B', '#E45756', '#72B7B2', '#B279A2', '#FF9DA6', '#9D755D'];
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const f = (v: number) => (Math.round(v * 100) / 100).toString();

/** SVG of a task's first metric by length bucket, from that task's RQ3 length table. */
export function lengthFigureSvg(t: Table, taskLabel: string): string | null {
  const rows = t.rows.filter((r) => r.cells[0]);
  const metricLabel = t.columns[0]?.label ?? '';
  if (rows.length === 0) return null;
  const models = [...new Set(rows.map((r) => r.keys[0] ?? ''))];
  const buckets = [...new Set(rows.map((r) => r.keys[1] ?? ''))];
  const W = 640;
  const H = 360;
  const m = { l: 56, r: 16, t: 40, b: 64 };
  const pw = W - m.l - m.r;
  const ph = H - m.t - m.b;
  const maxV = Math.max(0.01, ...rows.map((r) => r.cells[0]?.hi ?? 0).filter(Number.isFinite));
  const top = Math.min(1, Math.ceil(maxV * 10) / 10) || 1;
  const y = (v: number) => m.t + ph - (Math.max(0, Math.min(v, top)) / top) * ph;
  const groupW = pw / buckets.length;
  const barW = Math.min(48, (groupW * 0.8) / models.length);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${W / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${esc(`${taskLabel} ${metricLabel} by input length`)}</text>`,
  ];
  for (let k = 0; k <= 5; k++) {
    const v = (top * k) / 5;
    parts.push(
      `<line x1="${m.l}" x2="${W - m.r}" y1="${f(y(v))}" y2="${f(y(v))}" stroke="#e5e5e5"/>`,
      `<text x="${m.l - 6}" y="${f(y(v) + 4)}" text-anchor="end" font-size="11">${(v * 100).toFixed(0)}</text>`,
    );
  }
  buckets.forEach((b, gi) => {
    const gx = m.l + gi * groupW + (groupW - barW * models.length) / 2;
    parts.push(
      `<text x="${f(m.l + gi * groupW + groupW / 2)}" y="${H - m.b + 18}" text-anchor="middle" font-size="12">${esc(b)}</text>`,
    );
    models.forEach((model, mi) => {
      const c = rows.find((r) => r.keys[0] === model && r.keys[1] === b)?.cells[0];
      if (!c) return;
      const x = gx + mi * barW;
      const color = PALETTE[mi % PALETTE.length];
      parts.push(
        `<rect x="${f(x)}" y="${f(y(c.value))}" width="${f(barW - 2)}" height="${f(y(0) - y(c.value))}" fill="${color}"><title>${esc(`${model} ${b}: ${(c.value * 100).toFixed(2)}`)}</title></rect>`,
      );
      if (Number.isFinite(c.lo) && Number.isFinite(c.hi)) {
        const cx = x + (barW - 2) / 2;
        parts.push(`<line x1="${f(cx)}" x2="${f(cx)}" y1="${f(y(c.lo))}" y2="${f(y(c.hi))}" stroke="#333"/>`);
      }
    });
  });
  parts.push(`<line x1="${m.l}" x2="${m.l}" y1="${m.t}" y2="${m.t + ph}" stroke="#333"/>`);
  parts.push(
    `<text x="14" y="${m.t + ph / 2}" font-size="12" transform="rotate(-90 14 ${m.t + ph / 2})" text-anchor="middle">${esc(metricLabel)} ×100</text>`,
  );
  models.forEach((model, mi) => {
    const lx = m.l + mi * 150;
    parts.push(
      `<rect x="${lx}" y="${H - 26}" width="12" height="12" fill="${PALETTE[mi % PALETTE.length]}"/>`,
      `<text x="${lx + 16}" y="${H - 16}" font-size="11">${esc(model)}</text>`,
    );
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}

/** PNG bytes of an SVG (resvg, system fonts). */
export async function svgToPng(svg: string): Promise<Uint8Array> {
  const { Resvg } = await import('@resvg/resvg-js');
  return new Resvg(svg, { font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' } })
    .render()
    .asPng();
}
