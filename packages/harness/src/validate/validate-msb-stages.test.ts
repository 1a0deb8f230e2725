/**
 * Validation under Multi-SWE-bench's rule reads every stage's log with the repository's parser as it is,
 * as Multi-SWE-bench's report does, whatever the test command's exit code.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFixture } from '../../testing/fixtures.ts';
import type { EnvSpec } from '../envs/specs.ts';
import { LocalBackend } from '../sandbox/local-backend.ts';
import { validateInstances } from './validate.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-validate-msb-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const fx = makeFixture('python', root);

// ctest's lines as Multi-SWE-bench's ctest parser reads them: a failure with a time after it is not read.
// `a` runs only once the fix is in; `b` fails in every stage; ctest exits 8 whenever a test fails.
const spec: EnvSpec = {
  name: fx.repo,
  versions: null,
  toolchain: 'python',
  apt: [],
  envSetup: [],
  install: [],
  testCmd:
    "if grep -q 'a + b' calc.py; then echo '1/2 Test #1: a ....   Passed    0.01 sec'; fi; " +
    "echo '2/2 Test #2: b ....***Failed    0.02 sec'; exit 8",
  parser: 'msb-ctest',
  specVersion: '1',
};

test('a stage whose command fails with no failing test read keeps its results: the test that appears is fixed', async () => {
  const [v] = await validateInstances([{ ...fx.instance, source: 'multi-swe-bench' }], {
    backend: new LocalBackend(join(root, 'cache')),
    specs: [spec],
    rule: 'multi-swe-bench',
    repeats: 1,
    timeoutS: 30,
    repoDirs: { [fx.repo]: fx.dir },
  });
  expect(v!.reason).toBeNull();
  expect(v!.valid).toBe(true);
  expect(v!.msb?.n2p).toEqual(['a']);
  expect(v!.derived?.fail_to_pass).toEqual(['a']);
}, 30_000);
