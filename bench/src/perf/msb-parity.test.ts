import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrerequisiteError, UsageError } from '@faun/kit';
import { compareInstance, differing, faunSide, recordedSides, requireMsbReference } from './msb-parity.ts';

const go = (lines: string[]) => `${lines.join('\n')}\n`;

// Expected values: Multi-SWE-bench's gin-gonic/gin class over these three logs (bench/scripts/msb_report.py):
// a test skipped in the test stage and passing after the fix comes out n2p, not s2p.
test('faun side of the parity check: three kept stage logs → validity and categories', () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-msb-parity-'));
  try {
    const d = join(root, 'acme__widget-pr-7');
    mkdirSync(d);
    writeFileSync(
      join(d, 'instance.json'),
      JSON.stringify({ instance_id: 'acme/widget:pr-7', repo: 'acme/widget', pr: 7, parser: 'msb-go' }),
    );
    writeFileSync(join(d, 'run.log'), go(['--- PASS: TestOld (0.00s)', '--- SKIP: TestSkip (0.00s)']));
    writeFileSync(
      join(d, 'test-patch-run.log'),
      go(['--- PASS: TestOld (0.00s)', '--- FAIL: TestBug (0.01s)', '--- SKIP: TestSkip (0.00s)']),
    );
    writeFileSync(
      join(d, 'fix-patch-run.log'),
      go([
        '--- PASS: TestOld (0.00s)',
        '--- PASS: TestBug (0.01s)',
        '--- PASS: TestSkip (0.00s)',
        '--- PASS: TestNew (0.00s)',
      ]),
    );
    expect(faunSide(d)).toEqual({
      instance_id: 'acme/widget:pr-7',
      valid: true,
      f2p: ['TestBug'],
      p2p: ['TestOld'],
      s2p: [],
      n2p: ['TestNew', 'TestSkip'],
      fixed: ['TestBug', 'TestNew', 'TestSkip'],
    });
    // Without its parser recorded the directory cannot be compared.
    writeFileSync(
      join(d, 'instance.json'),
      JSON.stringify({ instance_id: 'acme/widget:pr-7', parser: null }),
    );
    expect(faunSide(d)).toBeNull();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('recorded side: the verdict `faun validate` kept is compared with the reference, field by field', () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-msb-parity-'));
  try {
    const journal = join(root, 'valid.jsonl.journal.jsonl');
    const line = (id: string, msb: Record<string, unknown> | null) =>
      JSON.stringify({ key: id, validation: { instance_id: id, valid: msb?.valid ?? false, msb } });
    writeFileSync(
      journal,
      [
        line('a/b:pr-1', {
          valid: false,
          error: 'after the fix patch, no test results were captured',
          fixed: [],
        }),
        line('a/b:pr-2', {
          valid: true,
          f2p: ['T2', 'T1'],
          pass_to_pass: ['P'],
          s2p: [],
          n2p: ['N'],
          fixed: ['T1', 'N', 'T2'],
        }),
        line('a/b:pr-3', null),
        // The last line for an instance wins: the journal is appended to.
        line('a/b:pr-1', { valid: false, error: 'no test went from not passing to passing', fixed: [] }),
        '',
      ].join('\n'),
    );
    const rec = recordedSides(journal);
    expect([...rec.keys()].sort()).toEqual(['a/b:pr-1', 'a/b:pr-2']);
    expect(rec.get('a/b:pr-2')).toEqual({
      instance_id: 'a/b:pr-2',
      valid: true,
      f2p: ['T1', 'T2'],
      p2p: ['P'],
      s2p: [],
      n2p: ['N'],
      fixed: ['N', 'T1', 'T2'],
      flaky: [],
    });
    // Recorded invalid where the reference finds a fixed test: both fields differ.
    const reference = {
      instance_id: 'a/b:pr-1',
      valid: true,
      f2p: [],
      p2p: [],
      s2p: [],
      n2p: ['D'],
      fixed: ['D'],
    };
    expect(differing(rec.get('a/b:pr-1')!, reference)).toEqual(['valid', 'n2p', 'fixed']);
    // Lists are not compared where the reference is invalid (it fills none).
    expect(differing(rec.get('a/b:pr-2')!, { ...reference, valid: false, fixed: ['N', 'T1', 'T2'] })).toEqual(
      ['valid'],
    );
    expect(recordedSides(join(root, 'none.jsonl')).size).toBe(0);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a recorded row that dropped flaky tests is compared without them, and its validity is not', () => {
  const row = (over: Record<string, unknown>) => ({
    instance_id: 'a/b:pr-4',
    valid: true,
    f2p: ['T'],
    p2p: ['P'],
    s2p: [],
    n2p: [],
    fixed: ['T'],
    ...over,
  });
  // The reference read repeat 1, where the timing test `slow` happened to go from failing to passing.
  const reference = row({ f2p: ['T', 'slow'], fixed: ['T', 'slow'] });
  const mine = row({ f2p: ['T', 'slow'], fixed: ['T', 'slow'] });
  expect(compareInstance(mine, reference, row({ flaky: ['slow'] }))).toEqual([]);
  // Without the flaky list the same recorded row differs.
  expect(compareInstance(mine, reference, row({ flaky: [] })).map((m) => m.field)).toEqual([
    'recorded f2p',
    'recorded fixed',
  ]);
  // A recorded list that differs on a stable test is still caught.
  expect(
    compareInstance(mine, reference, row({ flaky: ['slow'], p2p: [] })).map((m) => [m.field, m.reference]),
  ).toEqual([['recorded p2p', ['P']]]);
  // The reference invalid (a flaky test regressed in its one run): the recorded row is not compared.
  expect(
    compareInstance(mine, { ...reference, valid: false }, row({ flaky: ['slow'] })).map((m) => m.field),
  ).toEqual(['valid']);
});

test('a run with --msb-src stops at once when the reference cannot run: no tree, or Python without its modules', () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-msb-ref-'));
  try {
    expect(() => requireMsbReference(root, '/bin/true')).toThrow(UsageError);
    expect(() => requireMsbReference(root, '/bin/true')).toThrow('no multi_swe_bench folder');
    mkdirSync(join(root, 'multi_swe_bench'));
    expect(requireMsbReference(root, '/bin/true')).toBe(root);
    const py = join(root, 'python3');
    writeFileSync(py, '#!/bin/sh\necho "ModuleNotFoundError: No module named \'unidiff\'" >&2\nexit 1\n', {
      mode: 0o755,
    });
    let err: unknown;
    try {
      requireMsbReference(root, py);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PrerequisiteError);
    expect((err as Error).message).toContain("No module named 'unidiff'");
    expect((err as PrerequisiteError).hint).toContain('python3-unidiff');
    expect(() => requireMsbReference(root, join(root, 'no-such-python'))).toThrow(PrerequisiteError);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
