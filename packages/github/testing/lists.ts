/**
 * The big lazily generated lists (repo issues, repo-wide comments): page mode with `rel="last"`,
 * cursor mode (`after=`), GitHub's page caps, `state`/`sort`/`direction`/`since`. Page starts and totals
 * are memoised per query so serving page p costs O(per_page), not O(p·per_page).
 */
import type { Corpus } from './corpus.ts';
import type { FakeComment, FakeEntry, FakeRepo } from './corpus-types.ts';
import { decodeCursor, encodeCursor, pageLinks, pageParam, perPage, withParams } from './paging.ts';

export interface ListResult {
  status: number;
  body: unknown;
  link: string | null;
}

interface Pos {
  pos: number;
  skip: number;
}

export interface ListOptions {
  /** `/issues`: pages ≥ this answer with a cursor (`after=`) `next` link; 1 = cursor mode from the start. */
  issuesCursorAfterPage: number;
  /**
   * `/issues/comments`: pages above this answer 422. Default: the page holding item 40,000 (GitHub caps
   * the repo-wide list near 40k items whatever `per_page` is).
   */
  commentsPageCap?: number;
}

/** Items the repo-wide comments list serves before answering 422. */
export const COMMENTS_ITEM_CAP = 40_000;

/**
 * How a repository pages `/issues`: GitHub switches some repositories (large ones) to cursor links
 * from page 1, and answers 422 past page 100 or earlier (python-github-backup#429, tap-github#415).
 * Repositories with index ≡ 2 (mod 4) page by cursor from the start; ≡ 3 (mod 4) stop page mode at 50.
 */
export function issuesPaging(
  repo: FakeRepo,
  cursorAfterPage: number,
): { cursorFrom: number; maxPage: number } {
  if (repo.index % 4 === 2) return { cursorFrom: 1, maxPage: 1 };
  if (repo.index % 4 === 3) return { cursorFrom: Math.min(cursorAfterPage, 50), maxPage: 50 };
  return { cursorFrom: cursorAfterPage, maxPage: 100 };
}

export const PAGE_NOT_SUPPORTED =
  'Pagination with the page parameter is not supported for large datasets, please use cursor based pagination (after/before)';
export const PAGINATION_LIMITED =
  'In order to keep the API fast for everyone, pagination is limited for this resource. Check the rel=last link relation in the Link response header to see how far back you can traverse.';

function unprocessable(message: string): ListResult {
  return { status: 422, body: { message, documentation_url: 'https://docs.github.com/rest' }, link: null };
}

export class Lists {
  private readonly starts = new Map<string, Map<number, Pos>>();
  private readonly totals = new Map<string, number>();
  private readonly orders = new Map<string, number[]>();

  constructor(
    private readonly corpus: Corpus,
    private readonly opts: ListOptions,
  ) {}

  private order(repo: FakeRepo, sort: string, desc: boolean): (pos: number) => number | null {
    if (sort === 'created') return (p) => (p >= repo.size ? null : desc ? repo.size - p : p + 1);
    const key = `${repo.index}|${sort}`;
    let idx = this.orders.get(key);
    if (!idx) {
      const rows: [number, number][] = [];
      for (let n = 1; n <= repo.size; n++) {
        const e = this.corpus.entry(repo, n);
        if (e) rows.push([sort === 'updated' ? e.updatedAt : e.comments.length, n]);
      }
      rows.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      idx = rows.map((r) => r[1]);
      this.orders.set(key, idx);
    }
    const list = idx;
    return (p) => (p >= list.length ? null : (list[desc ? list.length - 1 - p : p] ?? null));
  }

  private scan<T>(
    at: (pos: number) => T[] | null,
    from: Pos,
    count: number,
  ): { items: T[]; next: Pos; more: boolean } {
    const items: T[] = [];
    let { pos, skip } = from;
    for (;;) {
      const here = at(pos);
      if (here === null) return { items, next: { pos, skip: 0 }, more: false };
      const avail = here.slice(skip);
      if (items.length === count) {
        if (avail.length > 0) return { items, next: { pos, skip }, more: true };
      } else {
        const take = avail.slice(0, count - items.length);
        items.push(...take);
        if (items.length === count && take.length < avail.length)
          return { items, next: { pos, skip: skip + take.length }, more: true };
      }
      pos++;
      skip = 0;
    }
  }

  private startOf<T>(key: string, at: (pos: number) => T[] | null, page: number, per: number): Pos {
    let memo = this.starts.get(key);
    if (!memo) {
      memo = new Map([[1, { pos: 0, skip: 0 }]]);
      this.starts.set(key, memo);
    }
    let p = page;
    while (!memo.has(p)) p--;
    let cur = memo.get(p) ?? { pos: 0, skip: 0 };
    for (; p < page; p++) {
      cur = this.scan(at, cur, per).next;
      memo.set(p + 1, cur);
    }
    return cur;
  }

  private total<T>(key: string, at: (pos: number) => T[] | null): number {
    let t = this.totals.get(key);
    if (t === undefined) {
      t = 0;
      for (let pos = 0; ; pos++) {
        const here = at(pos);
        if (here === null) break;
        t += here.length;
      }
      this.totals.set(key, t);
    }
    return t;
  }

  /** `GET /repos/{o}/{r}/issues`. */
  issues(url: URL, repo: FakeRepo, render: (e: FakeEntry) => unknown): ListResult {
    const q = url.searchParams;
    const state = q.get('state') ?? 'open';
    const sort = q.get('sort') ?? 'created';
    const direction = q.get('direction') ?? 'desc';
    if (
      !['open', 'closed', 'all'].includes(state) ||
      !['created', 'updated', 'comments'].includes(sort) ||
      !['asc', 'desc'].includes(direction)
    )
      return unprocessable('Validation Failed');
    const since = q.get('since') ? Date.parse(q.get('since') ?? '') / 1000 : null;
    if (since !== null && Number.isNaN(since)) return unprocessable('Validation Failed');
    const order = this.order(repo, sort, direction === 'desc');
    const at = (pos: number): FakeEntry[] | null => {
      const n = order(pos);
      if (n === null) return null;
      const e = this.corpus.entry(repo, n);
      if (!e || e.gap) return [];
      if (state !== 'all' && e.state !== state) return [];
      if (since !== null && e.updatedAt < since) return [];
      return [e];
    };
    const per = perPage(url);
    const key = `issues|${repo.index}|${state}|${sort}|${direction}|${since}|${per}`;
    const after = q.get('after');
    const { cursorFrom, maxPage } = issuesPaging(repo, this.opts.issuesCursorAfterPage);
    const cursorLink = (next: Pos) =>
      `<${withParams(url, { after: encodeCursor(next.pos) }, ['page'])}>; rel="next"`;
    if (after !== null) {
      const pos = decodeCursor(after);
      if (pos === null) return unprocessable('Invalid cursor');
      const r = this.scan(at, { pos, skip: 0 }, per);
      return { status: 200, body: r.items.map(render), link: r.more ? cursorLink(r.next) : null };
    }
    const page = pageParam(url);
    if (page > maxPage) return unprocessable(PAGE_NOT_SUPPORTED);
    const r = this.scan(at, this.startOf(key, at, page, per), per);
    if (page >= cursorFrom)
      return { status: 200, body: r.items.map(render), link: r.more ? cursorLink(r.next) : null };
    const last = Math.max(1, Math.ceil(this.total(key, at) / per));
    return { status: 200, body: r.items.map(render), link: pageLinks(url, page, last) };
  }

  /** `GET /repos/{o}/{r}/issues/comments` (ascending id; `since` on updated_at; page cap → 422). */
  comments(url: URL, repo: FakeRepo, render: (n: number, c: FakeComment) => unknown): ListResult {
    const q = url.searchParams;
    const since = q.get('since') ? Date.parse(q.get('since') ?? '') / 1000 : null;
    const desc = q.get('direction') === 'desc';
    const at = (pos: number): [number, FakeComment][] | null => {
      if (pos >= repo.size) return null;
      const n = desc ? repo.size - pos : pos + 1;
      const e = this.corpus.entry(repo, n);
      if (!e || e.gap) return [];
      const cs = e.comments
        .filter((c) => since === null || c.updatedAt >= since)
        .map((c): [number, FakeComment] => [n, c]);
      return desc ? cs.reverse() : cs;
    };
    const per = perPage(url);
    const page = pageParam(url);
    const cap = this.opts.commentsPageCap ?? Math.ceil(COMMENTS_ITEM_CAP / per);
    if (page > cap) return unprocessable(PAGINATION_LIMITED);
    const key = `comments|${repo.index}|${since}|${desc}|${per}`;
    const r = this.scan(at, this.startOf(key, at, page, per), per);
    const last = Math.min(cap, Math.max(1, Math.ceil(this.total(key, at) / per)));
    return { status: 200, body: r.items.map(([n, c]) => render(n, c)), link: pageLinks(url, page, last) };
  }
}
