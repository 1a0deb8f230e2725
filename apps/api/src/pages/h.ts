/** A tiny HTML template tag: interpolated values are escaped unless they are already `Safe` markup. */
export class Safe {
  constructor(readonly html: string) {}
  toString(): string {
    return this.html;
  }
}

export function esc(v: unknown): string {
  return String(v ?? '').replace(/[&<>"']/g, (ch) =>
    ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '"' ? '&quot;' : '&#39;',
  );
}

function part(v: unknown): string {
  if (v instanceof Safe) return v.html;
  if (Array.isArray(v)) return v.map(part).join('');
  if (v === null || v === undefined || v === false) return '';
  return esc(v);
}

/** `h\`<td>${value}</td>\`` → Safe markup with `value` escaped. */
export function h(strings: TemplateStringsArray, ...values: unknown[]): Safe {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += part(values[i]) + (strings[i + 1] ?? '');
  return new Safe(out);
}

/** A number for display: fixed decimals, '—' for missing. */
export function fmt(v: number | null | undefined, digits = 3): string {
  return typeof v === 'number' && Number.isFinite(v) ? v.toFixed(digits) : '—';
}
