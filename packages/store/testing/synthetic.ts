/**
 * Seeded synthetic crawl data for tests and the benchmark: entries with realistic title/body sizes,
 * comments, events and cross-references, in crawler-sized pages.
 * @module
 */
import { mulberry32 } from '@faun/kit';
import type { Comment, CrossRef, IssueEvent, RawEntry } from '@faun/schema';
import type { CrawlBatch } from '../src/batch.ts';

/** The seeded PRNG (mulberry32) the whole project uses. */
export const rng = mulberry32;

const WORDS = (
  'the a fix bug crash when calling function returns wrong value error in module parser test fails ' +
  'on windows linux memory leak after update version regression null pointer exception stack trace ' +
  'expected actual behaviour reproduce steps config option default branch build broken docs typo'
).split(' ');

function text(r: () => number, chars: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const w = WORDS[Math.floor(r() * WORDS.length)] ?? 'x';
    out.push(w);
    n += w.length + 1;
  }
  return out.join(' ');
}

const iso = (t: number) => new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
const T0 = Date.UTC(2020, 0, 1);

/** One synthetic entry; ~40% are PRs (most merged into main), bodies 0.8–2 KB. */
export function makeEntry(r: () => number, repo: string, number: number): RawEntry {
  const isPr = r() < 0.4;
  const created = T0 + number * 3_600_000;
  const closed = r() < 0.8;
  const merged = isPr && closed && r() < 0.85;
  return {
    v: 1,
    repo,
    number,
    kind: isPr ? 'pr' : 'issue',
    node_id: `N_${number.toString(36)}`,
    title: text(r, 30 + Math.floor(r() * 60)),
    body: r() < 0.03 ? null : text(r, 800 + Math.floor(r() * 1200)),
    state: closed ? 'closed' : 'open',
    state_reason: closed && !isPr ? 'completed' : null,
    author: r() < 0.02 ? null : { login: `user${Math.floor(r() * 5000)}`, type: r() < 0.05 ? 'Bot' : 'User' },
    author_association: 'CONTRIBUTOR',
    labels: r() < 0.5 ? ['bug'] : [],
    locked: false,
    comments_count: Math.floor(r() * 8),
    created_at: iso(created),
    updated_at: iso(created + 86_400_000),
    closed_at: closed ? iso(created + 43_200_000) : null,
    transferred_to: null,
    default_branch: 'main',
    pr: isPr
      ? {
          merged,
          merged_at: merged ? iso(created + 43_200_000) : null,
          base_ref: r() < 0.9 ? 'main' : 'release',
          base_sha: null,
          head_sha: null,
          merge_commit_sha: null,
          changed_files: 1 + Math.floor(r() * 5),
          additions: Math.floor(r() * 100),
          deletions: Math.floor(r() * 50),
          closing_issues: r() < 0.5 && number > 1 ? [number - 1] : [],
          files: null,
        }
      : null,
  };
}

export function makeComment(r: () => number, repo: string, number: number, id: number): Comment {
  const t = iso(T0 + number * 3_600_000 + id);
  return {
    v: 1,
    repo,
    number,
    id,
    author: { login: `user${Math.floor(r() * 5000)}`, type: 'User' },
    author_association: 'NONE',
    body: text(r, 200),
    created_at: t,
    updated_at: t,
  };
}

export function makeEvent(
  repo: string,
  number: number,
  id: string,
  closer: string | null = null,
): IssueEvent {
  return {
    v: 1,
    repo,
    number,
    id,
    event: 'closed',
    actor: null,
    created_at: iso(T0 + number * 3_600_000),
    closer,
  };
}

export function makeCrossref(repo: string, issue: number, pr: number, willClose: boolean | null): CrossRef {
  return {
    v: 1,
    target_repo: repo,
    target_number: issue,
    source_repo: repo,
    source_number: pr,
    source_kind: 'pr',
    will_close_target: willClose,
    created_at: iso(T0 + pr * 3_600_000),
    via: 'cross-referenced',
  };
}

/**
 * Crawler-shaped pages: `total` entries over `repos` repositories, `pageSize` per page, each page with
 * its `issues` checkpoint. Generated lazily so a big crawl is never all in memory.
 */
export function* crawlPages(opts: {
  seed: number;
  total: number;
  repos: number;
  pageSize?: number;
}): Generator<CrawlBatch> {
  const r = rng(opts.seed);
  const size = opts.pageSize ?? 100;
  const perRepo = Math.ceil(opts.total / opts.repos);
  let made = 0;
  for (let k = 0; k < opts.repos && made < opts.total; k++) {
    const repo = `org${k}/repo${k}`;
    for (let start = 1; start <= perRepo && made < opts.total; start += size) {
      const entries: RawEntry[] = [];
      for (let n = start; n < start + size && n <= perRepo && made < opts.total; n++, made++) {
        entries.push(makeEntry(r, repo, n));
      }
      const last = start + entries.length - 1;
      yield {
        entries,
        checkpoint: {
          repo,
          stream: 'issues',
          cursor: last >= perRepo ? null : `https://api.github.com/repos/${repo}/issues?after=${last}`,
          done: last >= perRepo,
          updated_at: iso(T0 + made),
          items: last,
        },
      };
    }
  }
}
