/**
 * `faun verify` killed with SIGKILL mid-run: the next invocation removes the dead run's containers,
 * reuses the finished instances and produces the same report as an uninterrupted run.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDocker } from '@faun/services';
import { FAUN_MAIN } from '../testing/cli.ts';
import { makeFixture } from '../testing/fixtures.ts';
import { LABEL } from './sandbox/docker.ts';

let root = '';
let args: string[] = [];

beforeAll(async () => {
  await ensureDocker();
  root = mkdtempSync(join(tmpdir(), 'faun-resume-int-'));
  const fx = makeFixture('python', root);
  const rows = [1, 2, 3, 4, 5, 6].map((i) => JSON.stringify({ ...fx.instance, instance_id: `py-${i}` }));
  writeFileSync(join(root, 'instances.jsonl'), `${rows.join('\n')}\n`);
  args = [
    '--instances',
    join(root, 'instances.jsonl'),
    '--predictions',
    'gold',
    '--repo-dir',
    `${fx.repo}=${fx.dir}`,
  ];
  args.push('--workers', '1', '--timeout', '120', '--log-dir', join(root, 'logs'), '--quiet');
  // Slow instances for the Ctrl+C test: the test command sleeps first.
  const slow = [1, 2].map((i) =>
    JSON.stringify({
      ...fx.instance,
      instance_id: `slow-${i}`,
      test_cmd: 'sleep 60; python3 -m pytest -rA -v',
    }),
  );
  writeFileSync(join(root, 'slow.jsonl'), `${slow.join('\n')}\n`);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const verify = (runId: string) =>
  Bun.spawn(['bun', FAUN_MAIN, 'verify', ...args, '--run-id', runId], { stdout: 'ignore', stderr: 'ignore' });
const report = (runId: string) => JSON.parse(readFileSync(join(root, 'logs', runId, 'report.json'), 'utf8'));
const done = (runId: string) => {
  const d = join(root, 'logs', runId, 'instances');
  return existsSync(d) ? readdirSync(d).filter((x) => existsSync(join(d, x, 'result.json'))).length : 0;
};

test('kill -9 during a run, then resume', async () => {
  expect(await verify('clean').exited).toBe(0);
  const clean = report('clean');
  expect(clean.resolved_instances).toBe(6);

  const p = verify('killed');
  const t0 = Date.now();
  while (done('killed') < 2 && Date.now() - t0 < 120_000) await Bun.sleep(100);
  await Bun.sleep(300); // likely mid-instance: a container is running
  p.kill('SIGKILL');
  await p.exited;
  const finished = done('killed');
  expect(finished).toBeGreaterThanOrEqual(2);
  expect(finished).toBeLessThan(6);

  const again = verify('killed');
  expect(await again.exited).toBe(0);
  const resumed = report('killed');
  const comparable = (r: Record<string, unknown>) => ({ ...r, run_id: null });
  expect(comparable(resumed)).toEqual(comparable(clean));
  const summary = JSON.parse(readFileSync(join(root, 'logs', 'killed', 'summary.json'), 'utf8'));
  expect(summary.metrics.reused).toBe(finished);
  const left = await Bun.$`docker ps -aq --filter label=${LABEL}.run=killed`.text();
  expect(left.trim()).toBe('');
}, 600_000);

test('Ctrl+C stops at once, removes the running container, stores nothing half-done and prints the resume command', async () => {
  const slowArgs = args.map((a) => (a.endsWith('instances.jsonl') ? join(root, 'slow.jsonl') : a));
  const p = Bun.spawn(
    // the slow rows carry their own test command: it runs only for trusted rows
    [
      'bun',
      FAUN_MAIN,
      'verify',
      ...slowArgs.filter((a) => a !== '--quiet'),
      '--trust-rows',
      '--run-id',
      'interrupted',
    ],
    { stdout: 'ignore', stderr: 'pipe' },
  );
  const stderr = new Response(p.stderr).text();
  const t0 = Date.now();
  const running = async () =>
    (await Bun.$`docker ps -q --filter label=${LABEL}.run=interrupted`.text()).trim();
  while (!(await running()) && Date.now() - t0 < 120_000) await Bun.sleep(200);
  expect(await running()).not.toBe('');
  const t1 = Date.now();
  p.kill('SIGINT');
  expect(await p.exited).toBe(130);
  expect(Date.now() - t1).toBeLessThan(20_000);
  // Started as `bun <path to main.ts>`, no `faun` on PATH: `bun run faun` from the workspace root, else
  // `bun <path>`.
  const err = await stderr;
  expect(err).toMatch(
    /resume with: bun (run faun|\S*apps\/cli\/src\/main\.ts) verify --instances \S*slow\.jsonl /,
  );
  expect(err).toContain('--run-id interrupted');
  expect(await running()).toBe('');
  expect(done('interrupted')).toBe(0);
  const summary = JSON.parse(readFileSync(join(root, 'logs', 'interrupted', 'summary.json'), 'utf8'));
  expect(summary.status).toBe('cancelled');
  expect(summary.resume_command).toMatch(/^bun (run faun|\S*main\.ts) verify .*--run-id interrupted/);
}, 300_000);
