/** Pure parts of the crawler: survivor selection, record mapping, the token pool, repos parsing. */
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawEntry } from '@faun/schema';
import { VirtualClock } from './clock.ts';
import { actorFromGraphql, entryFromRest, pullFromGraphql } from './records.ts';
import { parseRepos } from './repos.ts';
import { type DetailTask, survivorEntry, survivorTasks } from './survivors.ts';
import { TokenPool, tokensFromEnv } from './tokens.ts';

const T = '2024-01-01T00:00:00Z';
function entry(number: number, kind: 'issue' | 'pr', extra: Partial<RawEntry> = {}): RawEntry {
  return {
    v: 1,
    repo: 'o/r',
    number,
    kind,
    title: 't',
    body: 'x'.repeat(300),
    state: 'closed',
    author: null,
    labels: [],
    locked: false,
    comments_count: 1,
    created_at: T,
    updated_at: T,
    ...extra,
  };
}
const pr = (
  n: number,
  closing: number[],
  extra: Partial<NonNullable<RawEntry['pr']>> = {},
  e: Partial<RawEntry> = {},
) =>
  entry(n, 'pr', {
    ...e,
    pr: { merged: true, merged_at: T, base_ref: 'main', changed_files: 1, closing_issues: closing, ...extra },
  });

/** Survivor tasks written `kind number`. */
const tasks = (...t: string[]): DetailTask[] =>
  t.map((k) => {
    const [kind, number] = k.split(' ');
    return { kind: kind as DetailTask['kind'], number: Number(number) };
  });

describe('survivorTasks', () => {
  const entries = [
    entry(1, 'issue'),
    pr(2, [1]),
    entry(3, 'issue', { body: 'short', comments_count: 0 }),
    pr(4, [3], { changed_files: 3 }),
    entry(5, 'issue'),
    pr(6, [5], { base_ref: 'release' }),
    entry(7, 'issue', { state: 'open' }),
    pr(8, [7]),
    entry(9, 'issue', { comments_count: 0 }),
    pr(10, [9], { merged: false }),
    entry(11, 'issue', { comments_count: 0 }),
    pr(12, [11, 99]),
  ];
  test('strict: linked, body ≥ 200, single-file PRs; comments only when there are some', () => {
    expect(survivorTasks(entries.map(survivorEntry), 'main', 'strict')).toEqual(
      tasks('comments 1', 'events 1', 'events 11', 'files 2', 'files 12'),
    );
  });
  test('linked: every linked issue and PR', () => {
    expect(survivorTasks(entries.map(survivorEntry), 'main', 'linked')).toEqual(
      tasks('comments 1', 'events 1', 'events 3', 'events 11', 'files 2', 'files 4', 'files 12'),
    );
  });
  test('since: only links whose issue or PR changed', () => {
    const later = '2024-06-01T00:00:00Z';
    const es = [entry(1, 'issue'), pr(2, [1]), entry(3, 'issue', { updated_at: later }), pr(4, [3])];
    expect(survivorTasks(es.map(survivorEntry), 'main', 'strict', 200, '2024-03-01T00:00:00Z')).toEqual(
      tasks('comments 3', 'events 3', 'files 4'),
    );
  });
});

describe('records', () => {
  test('ghost users, PR items, labels', () => {
    const e = entryFromRest(
      {
        number: 5,
        title: 'x',
        body: null,
        state: 'closed',
        user: null,
        labels: [{ name: 'bug' }],
        comments: 2,
        created_at: T,
        updated_at: T,
        pull_request: { merged_at: T },
      },
      'o/r',
      'main',
    );
    expect(e).toMatchObject({
      author: null,
      kind: 'pr',
      labels: ['bug'],
      comments_count: 2,
      pr: { merged: true, merged_at: T, base_ref: '' },
    });
  });
  test('GraphQL bots get the REST [bot] suffix; cross-repo closing references are dropped', () => {
    expect(actorFromGraphql({ __typename: 'Bot', login: 'dependabot' })).toEqual({
      login: 'dependabot[bot]',
      type: 'Bot',
    });
    expect(actorFromGraphql(null)).toBeNull();
    const p = pullFromGraphql(
      {
        merged: true,
        baseRefName: 'main',
        changedFiles: 1,
        closingIssuesReferences: {
          nodes: [
            { number: 9, repository: { nameWithOwner: 'x/y' } },
            { number: 3, repository: { nameWithOwner: 'O/R' } },
          ],
        },
        files: { nodes: [{ path: 'a.py', changeType: 'MODIFIED', additions: 1, deletions: 1 }] },
      },
      'o/r',
    );
    expect(p.closing_issues).toEqual([3]);
    expect(p.files).toEqual([{ filename: 'a.py', status: 'modified', additions: 1, deletions: 1 }]);
  });
});

describe('TokenPool', () => {
  test('uses the token with budget, then waits for the earliest reset before sending', async () => {
    // Discrete time: the wait is what the pool asks for, whatever the machine's load (a scaled real clock
    // overshot the bound by 40 ms of real time under load).
    const clock = new VirtualClock(Date.parse('2026-01-01T00:00:00Z'));
    const pool = new TokenPool(['a', 'b'], clock);
    const reset = Math.floor(clock.now() / 1000) + 600;
    const h = (remaining: number, r = reset) => ({
      'x-ratelimit-resource': 'core',
      'x-ratelimit-remaining': String(remaining),
      'x-ratelimit-reset': String(r),
      'x-ratelimit-limit': '5',
    });
    const s1 = await pool.acquire('core');
    s1.release(h(0));
    const s2 = await pool.acquire('core');
    expect(s2.token).not.toBe(s1.token);
    s2.release(h(0, reset + 600));
    const before = clock.now();
    const s3 = await pool.acquire('core');
    expect(s3.token).toBe(s1.token);
    expect(clock.now()).toBeGreaterThanOrEqual(reset * 1000);
    expect(clock.now() - before).toBeLessThan(1_200_000);
    s3.release(null);
  });
  test('tokens from flags and env, de-duplicated, never empty strings', () => {
    expect(tokensFromEnv(['f1'], { GITHUB_TOKENS: 'a, b,,f1', GITHUB_TOKEN: 'c' })).toEqual([
      'f1',
      'a',
      'b',
      'c',
    ]);
  });
});

describe('parseRepos', () => {
  test('list, file with comments and URLs, errors with file:line', () => {
    expect(parseRepos('a/b,c/d')).toEqual(['a/b', 'c/d']);
    const dir = mkdtempSync(join(tmpdir(), 'repos-'));
    const f = join(dir, 'r.txt');
    writeFileSync(f, '# x\nhttps://github.com/pallets/flask\n\npsf/requests # http\n');
    expect(parseRepos(f)).toEqual(['pallets/flask', 'psf/requests']);
    writeFileSync(f, 'a/b\nbad name\n');
    expect(() => parseRepos(f)).toThrow(`${f}:2`);
    expect(() => parseRepos('nothing')).toThrow('neither a file nor a list');
  });
});
