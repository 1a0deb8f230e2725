/** `link` headers exactly as GitHub writes them. */

/** The URL of the same request with `set` params replaced and `drop` params removed. */
export function withParams(url: URL, set: Record<string, string>, drop: string[] = []): string {
  const u = new URL(url.href);
  for (const d of drop) u.searchParams.delete(d);
  for (const [k, v] of Object.entries(set)) u.searchParams.set(k, v);
  return u.href;
}

/** Page-mode links for page `page` of `last` (no header on a single page). */
export function pageLinks(url: URL, page: number, last: number): string | null {
  if (last <= 1) return null;
  const parts: string[] = [];
  if (page > 1) parts.push(`<${withParams(url, { page: String(page - 1) })}>; rel="prev"`);
  if (page < last) parts.push(`<${withParams(url, { page: String(page + 1) })}>; rel="next"`);
  if (page < last) parts.push(`<${withParams(url, { page: String(last) })}>; rel="last"`);
  if (page > 1) parts.push(`<${withParams(url, { page: '1' })}>; rel="first"`);
  return parts.length ? parts.join(', ') : null;
}

/** `per_page` as GitHub reads it: default 30, capped at 100; 0, negative or junk fall back to 30. */
export function perPage(url: URL): number {
  const n = Number(url.searchParams.get('per_page'));
  if (!Number.isInteger(n) || n <= 0) return 30;
  return Math.min(100, n);
}

/** `page` (1 by default; junk → 1). */
export function pageParam(url: URL): number {
  const n = Number(url.searchParams.get('page'));
  return Number.isInteger(n) && n >= 1 ? n : 1;
}

/** Serves one page of an in-memory list. */
export function pageOf<T>(url: URL, items: T[]): { items: T[]; link: string | null } {
  const per = perPage(url);
  const page = pageParam(url);
  const last = Math.max(1, Math.ceil(items.length / per));
  return { items: items.slice((page - 1) * per, page * per), link: pageLinks(url, page, last) };
}

/**
 * Opaque cursors as GitHub writes them: standard base64 of `cursor:v2:…`, `=` padding included
 * (e.g. `Y3Vyc29yOnYyOpHOAAAB…==`), so they must be URL-encoded in `after=` links.
 */
export function encodeCursor(pos: number): string {
  return Buffer.from(`cursor:v2:${pos}`).toString('base64');
}

export function decodeCursor(s: string): number | null {
  const m = /^cursor:(?:v2:)?(\d+)$/.exec(Buffer.from(s, 'base64').toString());
  return m?.[1] ? Number(m[1]) : null;
}
