/**
 * Published images without the internet: a Docker registry on loopback (@faun/services) holds two images
 * built here in the published layouts — SWE-bench's (`/testbed`, conda-style activation script, the row
 * carries `eval_script` / `log_parser` / `eval_type`) and Multi-SWE-bench's (`/home/fix-run.sh`,
 * `/home/test-run.sh`, `/home/run.sh`). `verifyRun` with `images: 'pull'` pulls them and grades gold
 * resolved, the half fix unresolved, empty not run. Bad rows — unknown log_parser, an image the registry
 * does not have, a registry that refuses connections — each get their own status while the rest is graded.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import {
  buildPolicy,
  ensureDocker,
  ensureRegistry,
  ensureToolchainImage,
  freePort,
  type ServiceHandle,
} from '@faun/services';
import { type Fixture, makeFixture, msbFixtureRow } from '../../testing/fixtures.ts';
import { msbImageName } from '../benchmarks/msb.ts';
import { swebenchImageName } from '../benchmarks/swebench.ts';
import { DockerBackend } from '../sandbox/docker.ts';
import { verifyRun } from '../verify.ts';
import { buildIn, docker } from './docker-images.ts';
import { testFiles } from './specs.ts';

let root = '';
let registry: ServiceHandle & { host: string };
let fx: Fixture;
let swe: ExecutionInstance;
let msb: Record<string, unknown>;
const pushed: string[] = [];

const run = async (args: string[]) => {
  const r = await docker(args);
  if (r.code !== 0) throw new Error(`docker ${args.join(' ')}: ${r.out}`);
};

/** A full clone of the fixture at its base commit into `dir`. */
function cloneAt(dir: string) {
  const r = Bun.spawnSync([
    'sh',
    '-c',
    `git clone -q '${fx.dir}' '${dir}' && git -C '${dir}' checkout -q ${fx.instance.base_commit}`,
  ]);
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
}

/** The Multi-SWE-bench image and row of the fixture (its three stage scripts); sets `msb`. */
async function buildMsbImage(tc: string, base: string): Promise<string> {
  const [org, name] = ['fixtures', 'fixture-python'];
  const msbImage = msbImageName(`${registry.host}/mswebench`, org, name, 1);
  const script = (body: string) => `#!/bin/bash\nset -e\n\ncd /home/${name}\n${body}\n`;
  const pytest = 'python3 -m pytest -rA -p no:cacheprovider tests/';
  await buildIn(
    msbImage,
    [
      `FROM ${tc}`,
      `COPY ${name} /home/${name}`,
      'COPY run.sh test-run.sh fix-run.sh test.patch /home/',
      'WORKDIR /home',
      '',
    ].join('\n'),
    buildPolicy('none'),
    () => {},
    async (ctx) => {
      cloneAt(join(ctx, name));
      writeFileSync(join(ctx, 'test.patch'), fx.instance.test_patch);
      writeFileSync(join(ctx, 'run.sh'), script(pytest));
      writeFileSync(
        join(ctx, 'test-run.sh'),
        script(`git apply --whitespace=nowarn /home/test.patch\n${pytest}`),
      );
      writeFileSync(
        join(ctx, 'fix-run.sh'),
        script(`git apply --whitespace=nowarn /home/test.patch /home/fix.patch\n${pytest}`),
      );
    },
  );
  msb = msbFixtureRow(fx, org, name, 1, base);
  return msbImage;
}

beforeAll(async () => {
  await ensureDocker();
  registry = await ensureRegistry();
  root = mkdtempSync(join(tmpdir(), 'faun-published-'));
  fx = makeFixture('python', root);
  const tc = await ensureToolchainImage('python');
  const files = testFiles(fx.instance.test_patch);
  const base = fx.instance.base_commit;
  const evalScript = [
    '#!/bin/bash',
    'set -uxo pipefail',
    'source /opt/miniconda3/bin/activate',
    'conda activate testbed',
    'cd /testbed',
    `git checkout ${base} ${files.join(' ')}`,
    "git apply -v - <<'EOF_114329324912'",
    fx.instance.test_patch.trimEnd(),
    'EOF_114329324912',
    ": '>>>>> Start Test Output'",
    `python3 -m pytest -rA -p no:cacheprovider ${files.join(' ')}`,
    ": '>>>>> End Test Output'",
    `git checkout ${base} ${files.join(' ')}`,
    '',
  ].join('\n');
  swe = {
    ...fx.instance,
    instance_id: 'fixtures__fixture-python-1',
    eval_script: evalScript,
    log_parser: 'parse_log_pytest',
    eval_type: 'pass_and_fail',
  };
  const sweImage = swebenchImageName(`${registry.host}/swebench`, swe.instance_id);
  await buildIn(
    sweImage,
    [
      `FROM ${tc}`,
      // conda-style activation: the published images activate the `testbed` env before the tests.
      'RUN mkdir -p /opt/miniconda3/bin && printf "conda() { echo \\"conda \\$*\\"; }\\n" > /opt/miniconda3/bin/activate',
      'COPY testbed /testbed',
      'WORKDIR /testbed',
      '',
    ].join('\n'),
    buildPolicy('none'),
    () => {},
    async (ctx) => cloneAt(join(ctx, 'testbed')),
  );

  const msbImage = await buildMsbImage(tc, base);
  for (const image of [sweImage, msbImage]) {
    await run(['push', image]);
    pushed.push(image);
    await run(['rmi', image]); // verify must pull it back
  }
}, 600_000);

afterAll(async () => {
  for (const image of pushed) await docker(['rmi', image]);
  await registry?.stop();
  rmSync(root, { recursive: true, force: true });
});

async function verify(kind: 'gold' | 'half' | 'empty', extra: ExecutionInstance[] = []) {
  const { toExecutionInstance } = await import('../rows/instances.ts');
  const msbInst = toExecutionInstance(msb, 'msb');
  const instances = [swe, msbInst, ...extra];
  const patch = kind === 'empty' ? '' : fx.patches[kind];
  return verifyRun({
    instances,
    predictions: instances.map((i) => ({ instance_id: i.instance_id, model: kind, patch })),
    runId: `pub-${kind}`,
    dir: join(root, `run-${kind}`),
    backend: new DockerBackend(`pub-${kind}`),
    timeoutS: 300,
    images: 'pull',
    // SWE-bench rows run their own eval_script: trusted rows only
    trustRows: true,
    // the rows' own images come from this test's loopback registries
    imageAllow: ['127.0.0.1:'],
    namespaces: { swebench: `${registry.host}/swebench`, msb: `${registry.host}/mswebench` },
    reportDir: join(root, `report-${kind}`),
  });
}

test('pulled from the loopback registry: gold resolved, half unresolved, empty not run', async () => {
  const { toExecutionInstance } = await import('../rows/instances.ts');
  const deadPort = await freePort();
  mkdirSync(join(root, 'x'), { recursive: true });
  const bad: ExecutionInstance[] = [
    { ...swe, instance_id: 'fixtures__fixture-python-2', log_parser: 'parse_log_nonesuch' },
    toExecutionInstance({ ...msb, number: 2 }, 'missing'),
    { ...swe, instance_id: 'fixtures__fixture-python-3', image: `127.0.0.1:${deadPort}/swebench/x:latest` },
  ];
  const gold = await verify('gold', bad);
  const by = Object.fromEntries(gold.results.map((r) => [r.instance_id, r]));
  expect(by[swe.instance_id]).toMatchObject({ outcome: 'resolved', resolved_status: 'RESOLVED_FULL' });
  expect(by['fixtures/fixture-python:pr-1']).toMatchObject({
    outcome: 'resolved',
    applied_with: 'fix-run.sh',
  });
  expect(by['fixtures__fixture-python-2']?.outcome).toBe('bad_input');
  expect(by['fixtures__fixture-python-2']?.error).toContain("unknown log_parser 'parse_log_nonesuch'");
  expect(by['fixtures/fixture-python:pr-2']?.outcome).toBe('infra_error');
  expect(by['fixtures/fixture-python:pr-2']?.error).toMatch(
    /published image .*fixtures_m_fixture-python:pr-2 unavailable/,
  );
  expect(by['fixtures__fixture-python-3']?.outcome).toBe('infra_error');
  expect(by['fixtures__fixture-python-3']?.error).toContain('docker pull failed');
  expect(gold.report.resolved_ids).toEqual(['fixtures/fixture-python:pr-1', swe.instance_id].sort());

  const half = await verify('half');
  for (const r of half.results) expect(r.outcome).toBe('unresolved');
  const empty = await verify('empty');
  for (const r of empty.results) expect(r.outcome).toBe('empty_patch');
  expect(empty.report.resolved_instances).toBe(0);
}, 900_000);
