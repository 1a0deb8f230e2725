import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { integrationFiles, integrationGroups, mergeTimings, runsAlone } from './test-groups.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-test-groups-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(files: Record<string, string>) {
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, p)), { recursive: true });
    writeFileSync(join(root, p), text);
  }
}

test('integration files are found outside node_modules, all in one pool', () => {
  write({
    'packages/a/src/run.int.test.ts': 'await ensureDocker();',
    'apps/api/src/sse.int.test.ts': 'await startTestServer();',
    'apps/api/src/unit.test.ts': 'await ensureDocker();',
    'node_modules/x/y.int.test.ts': 'await ensureDocker();',
    'packages/b/src/z.int.test.ts': 'spawn();',
  });
  const files = integrationFiles(root);
  expect(files).toEqual([
    'apps/api/src/sse.int.test.ts',
    'packages/a/src/run.int.test.ts',
    'packages/b/src/z.int.test.ts',
  ]);
  expect(integrationGroups(root, files)).toEqual([
    { label: 'integration tests', files, kind: 'integration' },
  ]);
});

test('a file with a `// alone: <why>` line runs alone; a mention elsewhere or without a reason does not count', () => {
  expect(runsAlone('/** doc */\n// alone: a latency bound\nimport x from "y";')).toBe(true);
  expect(runsAlone('// alone:\n')).toBe(false);
  expect(runsAlone('const s = "// alone: no"; // alone: not at the start')).toBe(false);
  expect(runsAlone('//alone: missing space')).toBe(false);
  expect(runsAlone('await ensureDocker();')).toBe(false);
});

test('files that run alone leave the pool for a group of their own, after it', () => {
  write({
    'apps/api/src/load.int.test.ts': '// alone: a latency bound\nawait startTestServer();',
    'packages/c/src/slow.int.test.ts': '// alone: timing\nawait ensureDocker();',
    'packages/c/src/box.int.test.ts': 'await ensureDocker();',
    'packages/c/src/srv.int.test.ts': 'await startTestServer();',
  });
  const files = [
    'packages/c/src/srv.int.test.ts',
    'packages/c/src/slow.int.test.ts',
    'apps/api/src/load.int.test.ts',
    'packages/c/src/box.int.test.ts',
  ];
  expect(integrationGroups(root, files)).toEqual([
    {
      label: 'integration tests',
      files: ['packages/c/src/box.int.test.ts', 'packages/c/src/srv.int.test.ts'],
      kind: 'integration',
    },
    {
      label: 'integration tests (alone)',
      files: ['apps/api/src/load.int.test.ts', 'packages/c/src/slow.int.test.ts'],
      kind: 'alone',
    },
  ]);
  expect(integrationGroups(root, ['apps/api/src/load.int.test.ts']).map((g) => g.kind)).toEqual(['alone']);
});

test("merged timings take each group's figures for its own files only, over the old ones, sorted by path", () => {
  const base = { version: 1, files: { 'b.int.test.ts': 10, 'a.int.test.ts': 20, 'u.test.ts': 5 } };
  // each group's copy started from the base; only its own files were measured
  const g1 = { version: 1, files: { 'b.int.test.ts': 11, 'a.int.test.ts': 20, 'u.test.ts': 5 } };
  const g2 = {
    version: 1,
    files: { 'b.int.test.ts': 10, 'a.int.test.ts': 25, 'u.test.ts': 5, 'c.int.test.ts': 7 },
  };
  const merged = mergeTimings(base, [
    { files: ['b.int.test.ts'], timings: g1 },
    { files: ['a.int.test.ts', 'c.int.test.ts', 'gone.int.test.ts'], timings: g2 },
  ]);
  expect(merged).toEqual({
    version: 1,
    files: { 'a.int.test.ts': 25, 'b.int.test.ts': 11, 'c.int.test.ts': 7, 'u.test.ts': 5 },
  });
  expect(Object.keys(merged.files)).toEqual(['a.int.test.ts', 'b.int.test.ts', 'c.int.test.ts', 'u.test.ts']);
});
