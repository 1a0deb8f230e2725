import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance, ExecutionResult } from '@faun/schema';
import { mirrorDirs, summarize } from './lite.ts';

const inst = (id: string, repo: string) => ({ instance_id: id, repo }) as ExecutionInstance;
const res = (
  id: string,
  outcome: string,
  f2p: string[] = [],
  p2p: string[] = [],
  error: string | null = null,
) =>
  ({
    instance_id: id,
    outcome,
    error,
    tests_status: {
      FAIL_TO_PASS: { success: [], failure: f2p },
      PASS_TO_PASS: { success: [], failure: p2p },
    },
  }) as unknown as ExecutionResult;

test('summarize: rows, build time, gold and empty resolved and each gold failure per repository', () => {
  const instances = [inst('a-1', 'o/a'), inst('a-2', 'o/a'), inst('b-1', 'o/b')];
  const out = summarize(
    instances,
    [
      res('a-1', 'resolved'),
      res('a-2', 'unresolved', ['t1'], ['t2']),
      res('b-1', 'infra_error', [], [], 'build failed'),
    ],
    [res('a-1', 'empty_patch'), res('a-2', 'empty_patch'), res('b-1', 'empty_patch')],
    { 'o/a': 12.34 },
  );
  expect(Object.keys(out)).toEqual(['o/a', 'o/b']);
  expect(out['o/a']).toEqual({
    rows: 2,
    env_build_seconds: 12.3,
    gold_resolved: 1,
    empty_resolved: 0,
    gold_failures: [{ instance_id: 'a-2', outcome: 'unresolved', reason: null, failing: ['t1', 't2'] }],
  });
  expect(out['o/b']?.gold_failures[0]?.reason).toBe('build failed');
  expect(out['o/b']?.env_build_seconds).toBe(0);
});

test('mirrorDirs: finds DIR/owner+name/repo or DIR/owner+name git directories, skips missing ones', () => {
  const d = mkdtempSync(join(tmpdir(), 'lite-mirrors-'));
  mkdirSync(join(d, 'o+a', 'repo'), { recursive: true });
  writeFileSync(join(d, 'o+a', 'repo', 'HEAD'), 'ref: refs/heads/main\n');
  mkdirSync(join(d, 'o+b'), { recursive: true });
  writeFileSync(join(d, 'o+b', 'HEAD'), 'ref: refs/heads/main\n');
  expect(mirrorDirs(d, ['o/a', 'o/b', 'o/c'])).toEqual({
    'o/a': join(d, 'o+a', 'repo'),
    'o/b': join(d, 'o+b'),
  });
});
