import { expect, test } from 'bun:test';
import type { ExecutionInstance } from '@faun/schema';
import { msbImageName } from '../benchmarks/msb.ts';
import { benchmarkOf } from '../benchmarks/registry.ts';
import { rowGrading } from '../benchmarks/row-grading.ts';
import { swebenchEvalScript, swebenchImageName } from '../benchmarks/swebench.ts';
import { testInstance } from '../run/test-instance.ts';
import { LANGUAGE_DEFAULTS } from './specs.ts';

test('image names as SWE-bench and Multi-SWE-bench publish them', () => {
  expect(swebenchImageName('swebench', 'astropy__astropy-12907')).toBe(
    'swebench/sweb.eval.x86_64.astropy_1776_astropy-12907:latest',
  );
  expect(swebenchImageName('swebench', 'Django__Django-1')).toBe(
    'swebench/sweb.eval.x86_64.django_1776_django-1:latest',
  );
  expect(msbImageName('mswebench', 'fasterxml', 'Jackson-Databind', 4228)).toBe(
    'mswebench/fasterxml_m_jackson-databind:pr-4228',
  );
});

const inst = (extra: Partial<ExecutionInstance>): ExecutionInstance =>
  testInstance({ instance_id: 'o__r-1', repo: 'o/r', base_commit: 'b', ...extra });

test('which rows run in a published image', () => {
  const ns = { swebench: 'reg:5000/swebench', msb: 'mswebench' };
  const publishedPlan = (i: ExecutionInstance) => benchmarkOf(i).publishedPlan(i, ns);
  expect(publishedPlan(inst({}))).toBeNull(); // no eval_script: faun's own environment
  expect(publishedPlan(inst({ eval_script: 'x' }))).toEqual({
    image: 'reg:5000/swebench/sweb.eval.x86_64.o_1776_r-1:latest',
    workdir: '/testbed',
    script: swebenchEvalScript('x'),
    readsExitCode: false,
  });
  expect(publishedPlan(inst({ source: 'multi-swe-bench', instance_id: 'org/repo:pr-12' }))).toEqual({
    image: 'mswebench/org_m_repo:pr-12',
    workdir: '/home',
    script: null,
    readsExitCode: true,
  });
});

test('the eval script records the test exit code after the end marker, as SWE-bench does', () => {
  const s = swebenchEvalScript(
    "#!/bin/bash\nset -uxo pipefail\ncd /testbed\n: '>>>>> Start Test Output'\npytest\n: '>>>>> End Test Output'\ngit checkout x\n",
  );
  expect(s).toBe(
    "#!/bin/bash\nset -uxo pipefail\ncd /testbed\n: '>>>>> Start Test Output'\npytest\nSWEBENCH_TEST_EXIT_CODE=$?\n: '>>>>> End Test Output'\n" +
      'echo ">>>>> Test Exit Code: $SWEBENCH_TEST_EXIT_CODE"\ngit checkout x\n',
  );
});

test("a row's log_parser and eval_type decide; unknown ones are a per-row problem", () => {
  const spec = LANGUAGE_DEFAULTS.python!;
  expect(rowGrading(inst({ log_parser: 'parse_log_pytest', eval_type: 'fail_only' }), spec)).toEqual({
    parser: 'pytest',
    exactIds: true,
    evalType: 'fail_only',
  });
  expect(rowGrading(inst({ eval_type: 'fail_sometimes' }), spec)).toEqual({
    problem: "unknown eval_type 'fail_sometimes' (expected pass_and_fail or fail_only)",
  });
  expect('problem' in rowGrading(inst({ log_parser: 'parse_log_nope' }), spec)).toBe(true);
  expect(rowGrading(inst({ repo: 'eslint/eslint' }), spec)).toMatchObject({
    evalType: 'fail_only',
    exactIds: false,
  });
  expect(rowGrading(inst({}), spec)).toEqual({
    parser: 'pytest',
    exactIds: false,
    evalType: 'pass_and_fail',
  });
});

test('the registry an image namespace lives on', async () => {
  const { registryUrl } = await import('./network.ts');
  expect(registryUrl('swebench')).toBe('https://registry-1.docker.io/v2/');
  expect(registryUrl('127.0.0.1:5000/swebench')).toBe('http://127.0.0.1:5000/v2/');
  expect(registryUrl('ghcr.io/epoch-research')).toBe('https://ghcr.io/v2/');
});
