import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { REPO_SPECS, versionForPr } from '@faun/harness';
import type { ExecutionInstance } from '@faun/schema';
import { instanceRecord, readPointers } from './real-exec.ts';
import { changesTestsRun, deviationsOf, REAL_EXEC_UPSTREAM } from './real-exec-upstream.ts';

const pointersFile = resolve(import.meta.dir, '../../data/real-exec-pointers.jsonl');

test('every repository of the committed pointer list says how it differs from Multi-SWE-bench', () => {
  const repos = new Set(readPointers(readFileSync(pointersFile, 'utf8'), pointersFile).map((p) => p.repo));
  for (const repo of repos) {
    expect(REAL_EXEC_UPSTREAM[repo], repo).toBeDefined();
    // the base is the fix commit's parent, not the PR's base.sha: declared for every repository
    expect(deviationsOf(repo, null)[0]?.what, repo).toBe('base commit');
    expect(
      deviationsOf(repo, null).some((d) => d.what === 'undescribed'),
      repo,
    ).toBe(false);
  }
});

test('every redux pointer falls in one of its environment versions: babel 6 / jest 22, babel 7 / jest 24, TypeScript / jest 25', () => {
  const counts: Record<string, number> = {};
  for (const p of readPointers(readFileSync(pointersFile, 'utf8'), pointersFile))
    if (p.repo === 'reduxjs/redux') {
      const v = versionForPr(p.repo, p.pr) ?? 'none';
      counts[v] = (counts[v] ?? 0) + 1;
    }
  expect(counts).toEqual({ 'jest22-babel6': 9, 'jest24-babel7': 7, 'jest25-ts': 3 });
});

test("a version's deviations are those of an environment version the repository's specs declare", () => {
  for (const [repo, r] of Object.entries(REAL_EXEC_UPSTREAM))
    for (const v of Object.keys(r.byVersion ?? {})) {
      const declared = REPO_SPECS.some((s) => s.name === repo && s.versions?.includes(v));
      expect(declared, `${repo} ${v}`).toBe(true);
      expect(deviationsOf(repo, v).length).toBeGreaterThan(deviationsOf(repo, null).length);
    }
});

test('narrowed test scopes count apart; an undescribed repository counts apart until described', () => {
  expect(changesTestsRun(deviationsOf('FasterXML/jackson-core', '2.14'))).toBe(true);
  expect(changesTestsRun(deviationsOf('colinhacks/zod', 'v3-ts-jest'))).toBe(true);
  expect(changesTestsRun(deviationsOf('labstack/echo', '4.5-golang-jwt'))).toBe(false);
  expect(changesTestsRun(deviationsOf('jqlang/jq', null))).toBe(false);
  // github-readme-stats runs Multi-SWE-bench's whole `npm test`: only its dependencies are pinned apart.
  expect(changesTestsRun(deviationsOf('anuraghazra/github-readme-stats', 'jest29-esm'))).toBe(false);
  // redux runs Multi-SWE-bench's whole `yarn test`: only its dependencies are pinned apart.
  expect(changesTestsRun(deviationsOf('reduxjs/redux', 'jest22-babel6'))).toBe(false);
  expect(changesTestsRun(deviationsOf('reduxjs/redux', 'jest24-babel7'))).toBe(false);
  expect(changesTestsRun(deviationsOf('reduxjs/redux', 'jest25-ts'))).toBe(false);
  expect(deviationsOf('reduxjs/redux', 'jest24-babel7').map((d) => d.faun)).not.toEqual(
    deviationsOf('reduxjs/redux', 'jest22-babel6').map((d) => d.faun),
  );
  // ripgrep runs Multi-SWE-bench's fail-fast `cargo test`; bytes leaves its doctests out.
  expect(changesTestsRun(deviationsOf('BurntSushi/ripgrep', null))).toBe(false);
  // fd too: its stand-in crates (allocator, temporary folders) and relaxed requirements run the same tests.
  expect(changesTestsRun(deviationsOf('sharkdp/fd', null))).toBe(false);
  expect(deviationsOf('sharkdp/fd', null).map((d) => d.what)).toEqual([
    'base commit',
    'regenerated lockfile',
    'relaxed requirements',
    'dependency substituted',
    'toolchain',
  ]);
  expect(changesTestsRun(deviationsOf('tokio-rs/bytes', null))).toBe(true);
  expect(deviationsOf('acme/unknown', null).map((d) => d.what)).toEqual(['undescribed']);
  expect(changesTestsRun(deviationsOf('acme/unknown', null))).toBe(true);
});

test("an instance's record holds the command it ran with its test files, and its deviations", () => {
  const row = {
    instance_id: 'fmtlib/fmt:pr-3863',
    repo: 'fmtlib/fmt',
    language: 'cpp',
    version: null,
    test_cmd: null,
    test_patch:
      'diff --git a/test/ranges-test.cc b/test/ranges-test.cc\n--- a/test/ranges-test.cc\n+++ b/test/ranges-test.cc\n@@ -1 +1 @@\n-a\n+b\n',
  } as unknown as ExecutionInstance;
  const rec = instanceRecord(row);
  expect(rec.command).toContain('for f in test/ranges-test.cc; do');
  expect(rec.command).toContain('ctest --output-on-failure -R');
  expect(rec.deviations.map((d) => d.what)).toContain('narrowed test scope');
  expect(rec.changes_tests_run).toBe(true);
  const go = instanceRecord({
    ...row,
    instance_id: 'gin-gonic/gin:pr-2755',
    repo: 'gin-gonic/gin',
    language: 'go',
    version: '1.7-golang-protobuf',
  });
  expect(go.command).toBe('go test -v -count=1 ./... 2>&1');
  expect(go.deviations.map((d) => d.what).join(', ')).toBe(
    'base commit, rewritten go.mod, toolchain, dependency substituted',
  );
  expect(go.changes_tests_run).toBe(false);
});
