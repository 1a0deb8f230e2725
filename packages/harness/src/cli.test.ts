/**
 * `faun verify` through the CLI on the local-process backend (no containers): exit codes and what is
 * printed for a run id reused with other predictions, for a run where nothing could be evaluated
 * (offline, no --repo-dir) and for one where only some instances failed for infrastructure reasons.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runFaun } from '../testing/cli.ts';
import { type Fixture, tempPythonFixture } from '../testing/fixtures.ts';

const hasPytest = Bun.spawnSync(['python3', '-m', 'pytest', '--version']).exitCode === 0;
let root = '';
let fx: Fixture;

beforeAll(() => {
  ({ root, fx } = tempPythonFixture('faun-cli-'));
  const rows = [1, 2, 3].map((i) => JSON.stringify({ ...fx.instance, instance_id: `py-${i}` }));
  writeFileSync(join(root, 'inst.jsonl'), `${rows.join('\n')}\n`);
  const other = JSON.stringify({ ...fx.instance, instance_id: 'other-1', repo: 'elsewhere/nothing' });
  writeFileSync(join(root, 'mixed.jsonl'), `${[...rows, other].join('\n')}\n`);
  const half = [1, 2, 3].map((i) =>
    JSON.stringify({ instance_id: `py-${i}`, model_name_or_path: 'm', model_patch: fx.patches.half }),
  );
  writeFileSync(join(root, 'half.jsonl'), `${half.join('\n')}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

function verify(...args: string[]) {
  const r = runFaun(
    ['verify', '--backend', 'local', '--timeout', '60', '--log-dir', join(root, 'logs'), ...args],
    {
      FAUN_STATE_DIR: join(root, 'state'),
      // Cloning must fail fast and the same way with or without network access.
      https_proxy: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
      GIT_TERMINAL_PROMPT: '0',
    },
  );
  return { code: r.code, out: `${r.stdout}\n${r.stderr}` };
}
/** `verify` of the gold patches of `instances` (in the test folder) as run `runId`. */
const verifyGold = (instances: string, runId: string, ...more: string[]) =>
  verify('--instances', join(root, instances), '--predictions', 'gold', '--run-id', runId, ...more);
const report = (id: string) => JSON.parse(readFileSync(join(root, 'logs', id, 'report.json'), 'utf8'));

describe.if(hasPytest)('faun verify (local backend)', () => {
  test('a run id keeps its predictions: other predictions exit 2 unless --overwrite', () => {
    const repoDir = ['--repo-dir', `${fx.repo}=${fx.dir}`];
    const base = ['--instances', join(root, 'inst.jsonl'), '--run-id', 'gold-1', ...repoDir];
    const gold = verify(...base, '--predictions', 'gold');
    expect(gold.code).toBe(0);
    expect(gold.out).toContain(
      '3/3 resolved (100.0%, 95% CI 43.9–100.0%); unresolved 0 (partial 0); flaky 0; tampered 0; empty patch 0; apply failed 0; ' +
        'timeout 0; invalid log 0; errors 0 (infra 0); not run 0; reused 0; report: ',
    );

    const half = verify(...base, '--predictions', join(root, 'half.jsonl'));
    expect(half.code).toBe(2);
    expect(half.out).toMatch(
      /run gold-1 was made with predictions gold \(model gold, sha256 [0-9a-f]{12}…\), not .*half\.jsonl \(model m, sha256 [0-9a-f]{12}…\); use another --run-id, or --overwrite to replace it/,
    );
    expect(report('gold-1').resolved_instances).toBe(3);

    expect(verify(...base, '--predictions', 'gold').out).toContain('3/3 resolved');
    expect(verify(...base, '--predictions', 'gold').out).toContain('reused 3;');

    const replaced = verify(...base, '--predictions', join(root, 'half.jsonl'), '--overwrite');
    expect(replaced.code).toBe(0);
    expect(replaced.out).toContain('0/3 resolved');
    expect(replaced.out).toContain('unresolved 3 (partial 3);');
    expect(replaced.out).toContain('reused 0;');
  }, 120_000);

  test('offline without --repo-dir: the reason is printed and the run fails (exit 1)', () => {
    const r = verifyGold('inst.jsonl', 'off');
    expect(r.code).toBe(1);
    expect(r.out).toContain('nothing was evaluated: all 3 instance(s) ended in an infrastructure error:');
    expect(r.out).toContain(`3× cannot clone https://github.com/${fx.repo}.git: fatal: unable to access`);
    expect(r.out).toContain('— py-1, py-2, py-3');
    expect(r.out).toContain(`--repo-dir ${fx.repo}=PATH`);
    expect(r.out).toContain('0/3 resolved (0.0%');
    expect(r.out).toContain('errors 3 (infra 3)');
  }, 60_000);

  test('some instances fail for infrastructure reasons: exit 0, the missing results are named', () => {
    const r = verifyGold('mixed.jsonl', 'mixed', '--repo-dir', `${fx.repo}=${fx.dir}`);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      '1 of 4 result(s) are missing (infrastructure errors, counted as not resolved); rerun the same command to retry them:',
    );
    expect(r.out).toContain('1× cannot clone https://github.com/elsewhere/nothing.git');
    expect(r.out).toContain('--repo-dir elsewhere/nothing=PATH');
    expect(r.out).toContain('3/4 resolved');
    expect(r.out).toContain('errors 1 (infra 1)');
  }, 60_000);
});

test('--instances, --predictions and --run-id are required unless --prune-images', () => {
  const r = verify('--predictions', 'gold', '--run-id', 'x');
  expect(r.code).toBe(2);
  expect(r.out).toContain('missing required option --instances');
});

test('--images pull needs the docker backend (exit 2)', () => {
  const r = verifyGold('inst.jsonl', 'p', '--images', 'pull');
  expect(r.out).toContain('--images pull needs the docker backend');
  expect(r.code).toBe(2);
}, 60_000);
