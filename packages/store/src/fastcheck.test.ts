import { expect, test } from 'bun:test';
import { RawEntry } from '@faun/schema';
import { makeEntry, rng } from '../testing/synthetic.ts';
import { fastEntry } from './fastcheck.ts';

const BAD_VALUES: unknown[] = [undefined, null, '', 'x', -1, 0, 1.5, 3_000_000_000, true, [], {}, ['a'], [1]];

/** Every entry the fast path accepts, zod accepts with the same result. */
function agrees(x: unknown): boolean {
  const fast = fastEntry(x);
  if (fast === null) return true;
  const z = RawEntry.safeParse(x);
  expect(z.success).toBe(true);
  expect(fast).toEqual(z.data as RawEntry);
  return true;
}

test('valid synthetic entries take the fast path and match zod', () => {
  const r = rng(1);
  for (let i = 1; i <= 300; i++) {
    const e = makeEntry(r, 'o/r', i);
    expect(fastEntry(e)).not.toBeNull();
    agrees(e);
  }
});

test('the fast path never accepts what zod rejects (top-level and PR field mutations)', () => {
  const r = rng(2);
  let rejected = 0;
  for (let i = 1; i <= 40; i++) {
    const e = makeEntry(r, 'o/r', i) as unknown as Record<string, unknown>;
    const pr = (e.pr as Record<string, unknown> | null) ?? {
      merged: true,
      merged_at: null,
      base_ref: 'main',
    };
    for (const key of [...Object.keys(e), 'extra']) {
      for (const bad of BAD_VALUES) {
        const m = { ...e, [key]: bad };
        if (fastEntry(m) === null) rejected++;
        agrees(m);
      }
    }
    agrees({ ...e, author: { login: 'a', type: 'User', id: 5 } });
    expect(fastEntry({ ...e, author: { login: 'a', type: 'User', id: 5 } })?.author).toEqual({
      login: 'a',
      type: 'User',
    });
    for (const key of [...Object.keys(pr), 'files', 'closing_issues']) {
      for (const bad of [
        ...BAD_VALUES,
        [{ filename: 'a' }],
        [{ filename: 'a', status: 's', additions: 1, deletions: 0 }],
      ]) {
        agrees({ ...e, kind: 'pr', pr: { ...pr, [key]: bad } });
      }
    }
  }
  expect(rejected).toBeGreaterThan(1000);
});
