import { expect, test } from 'bun:test';
import { formatBytes, type ImageInfo, parseDockerSize, planPrune } from './prune.ts';

const img = (ref: string, created: string, layers: string[]): ImageInfo => {
  const c = ref.lastIndexOf(':');
  return { ref, repository: ref.slice(0, c), tag: ref.slice(c + 1), created, layers };
};
const T = (m: number) => `2026-01-01T00:${String(m).padStart(2, '0')}:00Z`;

const images = [
  img('faun/debian:bookworm-abc', T(0), ['L0']),
  img('faun/toolchain-python:def', T(1), ['L0', 'L1']),
  img('faun/env-flask:old', T(2), ['L0', 'L1', 'E1']),
  img('faun/env-flask:new', T(3), ['L0', 'L1', 'E2']),
  img('faun/env-req:old', T(2), ['L0', 'L1', 'R1']),
  img('faun/env-req:new', T(4), ['L0', 'L1', 'R2']),
  img('faun/inst-flask:used', T(5), ['L0', 'L1', 'E1', 'I1']),
  img('faun/inst-flask:stale', T(5), ['L0', 'L1', 'E2', 'I2']),
  img('faun/inst-req:stale', T(6), ['L0', 'L1', 'R1', 'I3']),
];
const refs = (xs: ImageInfo[]) => xs.map((x) => x.ref);

test('unreferenced instance images go; env images only when superseded and no longer a base', () => {
  const plan = planPrune(images, new Set(['used']), Date.parse(T(30)));
  // env-flask:old stays: the used instance image is built on it; env-*:new are the newest of their repo.
  expect(refs(plan)).toEqual(['faun/env-req:old', 'faun/inst-flask:stale', 'faun/inst-req:stale']);
});

test('toolchain and base images are never candidates, even with nothing in use', () => {
  const plan = refs(planPrune(images, new Set(), Date.parse(T(30))));
  expect(plan).toEqual([
    'faun/env-flask:old',
    'faun/env-req:old',
    'faun/inst-flask:stale',
    'faun/inst-flask:used',
    'faun/inst-req:stale',
  ]);
  expect(plan.some((r) => r.startsWith('faun/toolchain-') || r.startsWith('faun/debian:'))).toBe(false);
});

test('images younger than the minimum age stay (a run may be building them right now)', () => {
  const plan = planPrune(images, new Set(['used']), Date.parse(T(10)), 5 * 60_000);
  // inst-req:stale (4 min old) stays, and so does env-req:old, which it is built on.
  expect(refs(plan)).toEqual(['faun/inst-flask:stale']);
});

test('docker sizes parse as decimal units and print back', () => {
  expect(parseDockerSize('3.191GB')).toBe(3_191_000_000);
  expect(parseDockerSize('28.74kB')).toBe(28_740);
  expect(parseDockerSize('0B')).toBe(0);
  expect(parseDockerSize('n/a')).toBe(0);
  expect(formatBytes(512)).toBe('512 B');
  expect(formatBytes(343_000_000)).toBe('343.0 MB');
  expect(formatBytes(3_191_000_000)).toBe('3.19 GB');
});
