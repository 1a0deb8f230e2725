import { expect, test } from 'bun:test';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import { specFor, testCommand } from '../envs/specs.ts';
import { contractEnv, determinismContract, TEST_SEED } from './contract.ts';

const sympy11 = {
  instance_id: 'sympy__sympy-13177',
  repo: 'sympy/sympy',
  language: 'python',
  version: '1.1',
  base_commit: '662cfb818e865f580e18b59efbb3540c34232beb',
  patch: '',
  test_patch:
    'diff --git a/sympy/core/tests/test_numbers.py b/sympy/core/tests/test_numbers.py\n--- a/sympy/core/tests/test_numbers.py\n+++ b/sympy/core/tests/test_numbers.py\n',
  fail_to_pass: ['test_mod'],
  pass_to_pass: [],
} as unknown as ExecutionInstance;

/** The words sympy's runner receives when the spec's test command runs under `env` (a stand-in python3). */
function runnerArgs(env: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'faun-contract-'));
  try {
    writeFileSync(join(dir, 'python3'), '#!/bin/sh\necho "$@"\n');
    chmodSync(join(dir, 'python3'), 0o755);
    const cmd = testCommand(specFor(sympy11)!, sympy11);
    const r = Bun.spawnSync(['sh', '-c', cmd], { env: { ...env, PATH: `${dir}:/usr/bin:/bin` } });
    return r.stdout.toString().trim();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("the contract fixes sympy's test-runner seed: every run gets --seed 0, not a seed drawn per run", () => {
  expect(contractEnv({}).FAUN_TEST_SEED).toBe(TEST_SEED);
  expect(runnerArgs(contractEnv({}))).toBe(
    `bin/test -C --verbose --seed ${TEST_SEED} sympy/core/tests/test_numbers.py`,
  );
  // the value comes from the contract's variable (so the result's record says what the run used)
  expect(runnerArgs({ ...contractEnv({}), FAUN_TEST_SEED: '7' })).toContain('--seed 7 ');
});

test('the recorded contract names the test-runner seed beside the hash seed', () => {
  const c = determinismContract({
    inst: { python_hash_seed: null },
    network: 'none',
    limits: { cpus: 1, memoryMb: 2048, pids: 512 } as never,
    image: 'i',
    imageDigest: null,
    isolated: true,
  });
  expect([c.PYTHONHASHSEED, c.FAUN_TEST_SEED]).toEqual(['0', TEST_SEED]);
});
