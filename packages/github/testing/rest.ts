/** REST routes of the fake GitHub. Returns a status + JSON body (+ link/location), never touches budgets. */
import { createHash } from 'node:crypto';
import type { Corpus } from './corpus.ts';
import type { FakeRepo } from './corpus-types.ts';
import type { Lists } from './lists.ts';
import { pageOf } from './paging.ts';
import { fakeSha } from './rng.ts';
import {
  commentJson,
  eventJson,
  issueJson,
  prFilesJson,
  pullJson,
  repoJson,
  timelineJson,
} from './shapes.ts';

export interface RouteResult {
  status: number;
  body: unknown;
  link?: string | null;
  location?: string;
  /** Serve `body` (a string) as text instead of JSON. */
  raw?: boolean;
}

const DOCS = 'https://docs.github.com/rest';
export const INBOX_ID = 999_999;

export function notFound(): RouteResult {
  return { status: 404, body: { message: 'Not Found', documentation_url: DOCS } };
}

function blobSha(content: string): string {
  return createHash('sha1')
    .update(`blob ${Buffer.byteLength(content)}\0${content}`)
    .digest('hex');
}

function refOk(corpus: Corpus, repo: FakeRepo, ref: string): boolean {
  return (
    ref === repo.defaultBranch ||
    ref === 'release-1.x' ||
    ref === repo.baseSha ||
    corpus.prOfHeadSha(repo, ref) !== null
  );
}

/**
 * A repository with issues turned off answers its issue endpoints with 410 "Issues are disabled for
 * this repo" (reported in ingydotnet/git-hub#72 and pockethub/PocketHub#57); its PRs stay reachable.
 */
export const ISSUES_DISABLED = 'Issues are disabled for this repo';

export interface RouteOptions {
  /** Full names of repositories with issues disabled. */
  issuesDisabled?: ReadonlySet<string>;
}

/** The repository a path names (by id or by name, following renames), or the answer when it names none. */
function resolveRepo(
  corpus: Corpus,
  url: URL,
  path: string,
): { repo: FakeRepo; rest: string } | { answer: RouteResult } {
  const api = url.origin;
  const m = /^\/repositories\/(\d+)(\/.*)?$/.exec(path);
  if (m) {
    if (Number(m[1]) === INBOX_ID) {
      const im = /^\/issues\/(\d+)$/.exec(m[2] ?? '');
      const src = im
        ? corpus
            .repos()
            .map((r) => corpus.entry(r, Number(im[1])))
            .find((e) => e?.gap === 'transferred')
        : null;
      if (!src) return { answer: notFound() };
      return {
        answer: { status: 200, body: issueJson(api, `${corpus.owner}/inbox`, { ...src, gap: null }) },
      };
    }
    const repo = corpus.byId(Number(m[1]));
    return repo ? { repo, rest: m[2] ?? '' } : { answer: notFound() };
  }
  const n = /^\/repos\/([^/]+)\/([^/]+)(\/.*)?$/.exec(path);
  if (!n) return { answer: notFound() };
  const found = corpus.find(`${n[1]}/${n[2]}`);
  if (found?.renamed) {
    const location = `${api}/repositories/${found.repo.id}${n[3] ?? ''}${url.search}`;
    return {
      answer: {
        status: 301,
        body: { message: 'Moved Permanently', url: location, documentation_url: DOCS },
        location,
      },
    };
  }
  return found ? { repo: found.repo, rest: n[3] ?? '' } : { answer: notFound() };
}

export function route(
  corpus: Corpus,
  lists: Lists,
  url: URL,
  accept: string,
  opts: RouteOptions = {},
): RouteResult {
  const api = url.origin;
  const path = decodeURIComponent(url.pathname).replace(/\/+$/, '');
  const at = resolveRepo(corpus, url, path);
  if ('answer' in at) return at.answer;
  const { repo: r, rest } = at;
  const disabled = opts.issuesDisabled?.has(r.full) ?? false;
  if (rest === '') return { status: 200, body: repoJson(api, r, !disabled) };
  if (disabled && /^\/issues(\/|$)/.test(rest))
    return {
      status: 410,
      body: { message: ISSUES_DISABLED, documentation_url: `${DOCS}/issues/issues#list-repository-issues` },
    };
  if (rest === '/issues') return lists.issues(url, r, (e) => issueJson(api, r.full, e));
  if (rest === '/issues/comments') return lists.comments(url, r, (n, c) => commentJson(api, r.full, n, c));
  const im = /^\/(issues|pulls)\/(\d+)(?:\/(comments|events|timeline|files))?$/.exec(rest);
  if (im) return entryRoute(corpus, url, r, im[1] as 'issues' | 'pulls', Number(im[2]), im[3]);
  const tm = /^\/git\/trees\/([^/]+)$/.exec(rest);
  if (tm) return treeRoute(corpus, api, r, tm[1] ?? '');
  const cm = /^\/contents\/(.+)$/.exec(rest);
  if (cm) return contentsRoute(corpus, url, accept, r, cm[1] ?? '');
  return notFound();
}

/** `/issues/{n}` and `/pulls/{n}`, with their comments, events, timeline and files. */
function entryRoute(
  corpus: Corpus,
  url: URL,
  r: FakeRepo,
  kind: 'issues' | 'pulls',
  number: number,
  sub: string | undefined,
): RouteResult {
  const api = url.origin;
  const e = corpus.entry(r, number);
  if (!e) return notFound();
  if (e.gap === 'deleted')
    return { status: 410, body: { message: 'This issue was deleted', documentation_url: DOCS } };
  if (e.gap === 'transferred') {
    const location = `${api}/repositories/${INBOX_ID}/issues/${e.number}`;
    return {
      status: 301,
      body: { message: 'Moved Permanently', url: location, documentation_url: DOCS },
      location,
    };
  }
  if (kind === 'pulls' && !e.pull) return notFound();
  if (kind === 'issues' && sub === 'files') return notFound();
  if (!sub) return { status: 200, body: kind === 'pulls' ? pullJson(api, r, e) : issueJson(api, r.full, e) };
  // Per-issue comments take `since` (updated at or after), like the repository-wide list.
  const since = sub === 'comments' && url.searchParams.get('since');
  const sinceAt = since ? Date.parse(since) / 1000 : null;
  if (sinceAt !== null && Number.isNaN(sinceAt))
    return { status: 422, body: { message: 'Validation Failed', documentation_url: DOCS } };
  const items =
    sub === 'comments'
      ? e.comments
          .filter((c) => sinceAt === null || c.updatedAt >= sinceAt)
          .map((c) => commentJson(api, r.full, e.number, c))
      : sub === 'events'
        ? e.events.map((ev) => eventJson(api, r.full, ev))
        : sub === 'timeline'
          ? timelineJson(api, corpus, r, e)
          : kind === 'pulls'
            ? prFilesJson(api, corpus, r, e)
            : null;
  if (!items) return notFound();
  const page = pageOf(url, items);
  return { status: 200, body: page.items, link: page.link };
}

/** `/git/trees/{sha}` (recursive): every directory and file of the repository at `sha`. */
function treeRoute(corpus: Corpus, api: string, r: FakeRepo, sha: string): RouteResult {
  if (!refOk(corpus, r, sha)) return notFound();
  const paths = corpus.paths(r);
  const dirs = new Set<string>();
  for (const p of paths)
    for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) dirs.add(p.slice(0, i));
  const tree = [
    ...[...dirs].map((d) => ({
      path: d,
      mode: '040000',
      type: 'tree',
      sha: fakeSha(`${r.full}:tree:${d}`),
    })),
    ...paths.map((p) => {
      const content = corpus.file(r, p, sha) ?? '';
      return {
        path: p,
        mode: '100644',
        type: 'blob',
        sha: blobSha(content),
        size: Buffer.byteLength(content),
      };
    }),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return {
    status: 200,
    body: { sha, url: `${api}/repos/${r.full}/git/trees/${sha}`, tree, truncated: false },
  };
}

/** `/contents/{path}`: base64 JSON, or the raw text for a raw media type. */
function contentsRoute(corpus: Corpus, url: URL, accept: string, r: FakeRepo, p: string): RouteResult {
  const api = url.origin;
  const ref = url.searchParams.get('ref') ?? r.defaultBranch;
  if (!refOk(corpus, r, ref))
    return {
      status: 404,
      body: { message: `No commit found for the ref ${ref}`, documentation_url: DOCS },
    };
  const content = corpus.file(r, p, ref);
  if (content === null) return notFound();
  if (/raw/.test(accept)) return { status: 200, body: content, raw: true };
  const b64 = Buffer.from(content)
    .toString('base64')
    .replace(/(.{60})/g, '$1\n');
  return {
    status: 200,
    body: {
      type: 'file',
      encoding: 'base64',
      size: Buffer.byteLength(content),
      name: p.split('/').pop(),
      path: p,
      content: b64,
      sha: blobSha(content),
      url: `${api}/repos/${r.full}/contents/${p}?ref=${ref}`,
      download_url: `${api}/repos/${r.full}/contents/${p}?ref=${ref}`,
    },
  };
}
