/** Renders the table model as Markdown, LaTeX, CSV and JSON (deterministic text). */
import { stableStringify } from '@faun/schema';
import type { Cell, Column, Table } from './model.ts';

function scale(col: Column, v: number): number {
  return col.kind === 'score' || col.kind === 'rate' ? v * 100 : v;
}

function num(col: Column, v: number): string {
  if (!Number.isFinite(v)) return '–';
  if (col.kind === 'number') return v < 0.001 ? '<0.001' : v.toFixed(3);
  const s = scale(col, v).toFixed(2);
  return col.kind === 'delta' && v > 0 ? `+${s}` : s;
}

function unit(col: Column): string {
  return col.kind === 'delta' || col.kind === 'rate' ? '%' : '';
}

export function cellText(col: Column, c: Cell | null): string {
  if (!c) return '';
  if (col.kind === 'number') return num(col, c.value);
  return `${num(col, c.value)}${unit(col)} [${num(col, c.lo)}, ${num(col, c.hi)}]`;
}

export function toMarkdown(t: Table): string {
  const head = [...t.rowHeader, ...t.columns.map((c) => c.label)];
  const lines = [
    `### ${t.title}`,
    '',
    `| ${head.join(' | ')} |`,
    `|${head.map((_, i) => (i < t.rowHeader.length ? '---' : '---:')).join('|')}|`,
  ];
  for (const r of t.rows) {
    const cells = r.cells.map((c, i) => {
      const col = t.columns[i];
      if (!col) return '';
      const text = cellText(col, c);
      return c?.best ? `**${text}**` : c?.significant && t.name === 'table4' ? `${text} †` : text;
    });
    lines.push(`| ${[...r.keys, ...cells].map((s) => s.replace(/\|/g, '\\|')).join(' | ')} |`);
  }
  lines.push('', ...t.notes.map((n) => `_${n}_`), '');
  return lines.join('\n');
}

const tex = (s: string) =>
  s
    .replace(/([\\&%$#_{}])/g, '\\$1')
    .replace(/~/g, '\\textasciitilde{}')
    .replace(/\^/g, '\\^{}');

export function toLatex(t: Table): string {
  const spec = `${'l'.repeat(t.rowHeader.length)}${'r'.repeat(t.columns.length)}`;
  const lines = [
    '\\begin{table}[t]',
    '\\centering',
    `\\caption{${tex(t.title)}}`,
    `\\begin{tabular}{${spec}}`,
    '\\toprule',
    `${[...t.rowHeader, ...t.columns.map((c) => c.label)].map(tex).join(' & ')} \\\\`,
    '\\midrule',
  ];
  for (const r of t.rows) {
    const cells = r.cells.map((c, i) => {
      const col = t.columns[i];
      if (!col || !c) return '';
      const main = num(col, c.value) + tex(unit(col));
      const ci = col.kind === 'number' ? '' : ` {\\scriptsize[${num(col, c.lo)}, ${num(col, c.hi)}]}`;
      const body = c.best ? `\\textbf{${main}}` : main;
      return `${body}${ci}${c.significant && t.name === 'table4' ? '$^\\dagger$' : ''}`;
    });
    lines.push(`${[...r.keys.map(tex), ...cells].join(' & ')} \\\\`);
  }
  lines.push('\\bottomrule', '\\end{tabular}', '\\end{table}', '');
  return lines.join('\n');
}

const csvField = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const raw = (v: number) => (Number.isFinite(v) ? String(Number(v.toPrecision(12))) : '');

export function toCsv(t: Table): string {
  const head = [...t.rowHeader];
  for (const c of t.columns) head.push(c.key, `${c.key}_lo`, `${c.key}_hi`, `${c.key}_n`);
  if (t.name === 'table4') for (const c of t.columns) head.push(`${c.key}_best`);
  const lines = [head.map(csvField).join(',')];
  for (const r of t.rows) {
    const f = [...r.keys];
    for (const c of r.cells)
      f.push(c ? raw(c.value) : '', c ? raw(c.lo) : '', c ? raw(c.hi) : '', c ? String(c.n) : '');
    if (t.name === 'table4') for (const c of r.cells) f.push(c?.best ? '1' : '0');
    lines.push(f.map(csvField).join(','));
  }
  return `${lines.join('\n')}\n`;
}

export function toJson(t: Table): string {
  const clean = (v: number) => (Number.isFinite(v) ? Number(v.toPrecision(12)) : null);
  return `${stableStringify(
    {
      name: t.name,
      title: t.title,
      rowHeader: t.rowHeader,
      columns: t.columns,
      notes: t.notes,
      rows: t.rows.map((r) => ({
        keys: r.keys,
        cells: r.cells.map((c) =>
          c
            ? {
                value: clean(c.value),
                lo: clean(c.lo),
                hi: clean(c.hi),
                n: c.n,
                best: c.best ?? false,
                significant: c.significant ?? false,
              }
            : null,
        ),
      })),
    },
    2,
  )}\n`;
}
