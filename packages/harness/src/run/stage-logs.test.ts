import { expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { instanceDirName, prNumberOf, stageLogName, stageLogWriter } from './stage-logs.ts';
import { testInstance } from './test-instance.ts';

test("stage log names follow Multi-SWE-bench's; repeats are numbered from 2", () => {
  expect(stageLogName('run', 0)).toBe('run.log');
  expect(stageLogName('test', 0)).toBe('test-patch-run.log');
  expect(stageLogName('fix', 0)).toBe('fix-patch-run.log');
  expect(stageLogName('fix', 2)).toBe('fix-patch-run.3.log');
  expect(stageLogName('before', 1)).toBe('before.2.log');
  expect(stageLogName('gold-check', 0)).toBe('gold-check.log');
  expect(stageLogName('gold-check', 5)).toBe('gold-check.6.log');
});

test('instance ids: a directory name without separators, the PR number from either shape', () => {
  expect(instanceDirName('gin-gonic/gin:pr-3227')).toBe('gin-gonic__gin-pr-3227');
  expect(prNumberOf('gin-gonic/gin:pr-3227')).toBe(3227);
  expect(prNumberOf('google__uuid-141')).toBe(141);
  expect(prNumberOf('no-number-here')).toBeNull();
});

test('the writer keeps each log and the instance description', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'faun-stage-logs-'));
  try {
    const write = stageLogWriter(dir);
    const instance = testInstance({ instance_id: 'acme/widget:pr-7', repo: 'acme/widget' });
    await write({ instance, stage: 'run', repeat: 0, parser: 'msb-go', text: 'ok 1\n' });
    await write({ instance, stage: 'fix', repeat: 1, parser: 'msb-go', text: 'ok 2\n' });
    const d = join(dir, 'acme__widget-pr-7');
    expect(readdirSync(d).sort()).toEqual(['fix-patch-run.2.log', 'instance.json', 'run.log']);
    expect(JSON.parse(readFileSync(join(d, 'instance.json'), 'utf8'))).toEqual({
      instance_id: 'acme/widget:pr-7',
      parser: 'msb-go',
      pr: 7,
      repo: 'acme/widget',
    });
    expect(readFileSync(join(d, 'fix-patch-run.2.log'), 'utf8')).toBe('ok 2\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
