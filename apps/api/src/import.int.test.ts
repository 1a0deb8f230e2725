/**
 * `faun serve --import DIR`: prediction files become finished runs on the datasets their ids belong to,
 * shown on the leaderboard; a restart with the same files adds nothing, a changed file is a new run.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';
import { startServer } from './server.ts';
import { flItems, flPredictions, qaItems } from './testkit.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-api-import-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

test('imported prediction files are finished runs on the leaderboard; idempotent on restart', async () => {
  const ds = join(root, 'datasets');
  const preds = join(root, 'predictions');
  mkdirSync(ds);
  mkdirSync(preds);
  const fl = flItems(20);
  const qa = qaItems(6);
  writeFileSync(join(ds, 'fl.jsonl'), jsonl(fl));
  writeFileSync(join(ds, 'qa.jsonl'), jsonl(qa));
  writeFileSync(join(preds, 'fl-bm25.jsonl'), jsonl(flPredictions(fl, (i) => i < 5, 'bm25')));
  writeFileSync(
    join(preds, 'qa-title.jsonl'),
    jsonl(qa.map((it) => ({ v: 1, id: it.id, task: 'qa', model: 'baseline:title', output: it.issue_title }))),
  );
  writeFileSync(join(preds, 'notes.jsonl'), '{"hello": 1}\n');
  const lines: string[] = [];
  const serve = () =>
    startServer({
      port: 0,
      db: join(root, 'db'),
      datasetsDir: ds,
      imports: [preds],
      redisUrl: null,
      log: () => {},
      progress: (l) => lines.push(l),
    });
  const get = async (url: string, path: string) => (await fetch(`${url}${path}`)).json() as Promise<never>;

  let h = await serve();
  try {
    const board: { items: { dataset: string; model: string; metrics: { em?: { value: number } } }[] } =
      await get(h.url, '/v1/leaderboard');
    expect(board.items.map((e) => [e.dataset, e.model]).sort()).toEqual([
      ['fl', 'bm25'],
      ['qa', 'baseline:title'],
    ]);
    expect(board.items.find((e) => e.dataset === 'fl')!.metrics.em!.value).toBeCloseTo(5 / 20, 10);
    const runs: { items: { id: string; status: string; score: { metric: string } | null }[] } = await get(
      h.url,
      '/v1/runs',
    );
    expect(runs.items.map((r) => r.status)).toEqual(['done', 'done']);
    const page = await (await fetch(`${h.url}/leaderboard?dataset=qa&task=qa`)).text();
    expect(page).toContain('baseline:title');
    expect(lines.some((l) => l.startsWith('import notes.jsonl: skipped'))).toBe(true);
  } finally {
    await h.stop();
  }

  // same files: the same runs, nothing new; a changed file: a new run, still one leaderboard row per model
  writeFileSync(join(preds, 'fl-bm25.jsonl'), jsonl(flPredictions(fl, (i) => i < 10, 'bm25')));
  lines.length = 0;
  h = await serve();
  try {
    expect(lines.filter((l) => l.includes('already imported')).length).toBe(1);
    const runs: { total: number } = await get(h.url, '/v1/runs');
    expect(runs.total).toBe(3);
    const board: { items: { dataset: string; runs: number; metrics: { em?: { value: number } } }[] } =
      await get(h.url, '/v1/leaderboard?dataset=fl');
    expect(board.items.length).toBe(1);
    expect(board.items[0]!.runs).toBe(2);
    expect(board.items[0]!.metrics.em!.value).toBeCloseTo(10 / 20, 10);
  } finally {
    await h.stop();
  }
}, 60_000);

const hasPytest = Bun.spawnSync(['python3', '-m', 'pytest', '--version']).exitCode === 0;

test.if(hasPytest)(
  'a faun verify run folder imports as a finished execution run, with its patch and stage logs',
  async () => {
    const { makeFixture } = await import('@faun/harness/testing');
    const fx = makeFixture('python', join(root, 'exec-repos'));
    const instances = join(root, 'exec-instances', 'demo-exec.jsonl');
    mkdirSync(join(root, 'exec-instances'));
    writeFileSync(instances, jsonl([fx.instance]));
    const runsDir = join(root, 'verify-runs');
    for (const pred of ['gold', 'empty']) {
      const p = Bun.spawnSync(
        [
          'bun',
          join(REPO_ROOT, 'apps/cli/src/main.ts'),
          'verify',
          '--instances',
          instances,
          '--predictions',
          pred,
          '--run-id',
          `demo-${pred}`,
          '--backend',
          'local',
          '--repo-dir',
          `${fx.repo}=${fx.dir}`,
        ],
        {
          env: { ...process.env, CI: '1', FAUN_LOG_DIR: runsDir },
          stdout: 'pipe',
          stderr: 'pipe',
        },
      );
      expect(p.exitCode === 0 || p.stderr.toString()).toBe(true);
    }
    // no dataset folder holds the instances: the run record's instances file is registered
    const empty = join(root, 'no-datasets');
    mkdirSync(empty);
    const lines: string[] = [];
    const h = await startServer({
      port: 0,
      db: 'memory://',
      datasetsDir: empty,
      imports: [runsDir],
      redisUrl: null,
      log: () => {},
      progress: (l) => lines.push(l),
      verify: { repoDirs: { [fx.repo]: fx.dir } },
    });
    try {
      const runs = (await (await fetch(`${h.url}/v1/runs?dataset=demo-exec`)).json()) as {
        items: { id: string; model: string; kind: string; status: string; score: { value: number } }[];
      };
      expect(runs.items.map((r) => [r.model, r.kind, r.status, r.score.value]).sort()).toEqual([
        ['empty', 'exec', 'done', 0],
        ['gold', 'exec', 'done', 1],
      ]);
      const gold = runs.items.find((r) => r.model === 'gold')!;
      const id = fx.instance.instance_id as string;
      const one = (await (await fetch(`${h.url}/v1/runs/${gold.id}/samples/${id}`)).json()) as {
        data: { execution: { outcome: string }; logs: Record<string, string> };
        log: string;
        prediction: { model_patch: string };
      };
      expect(one.data.execution.outcome).toBe('resolved');
      expect(Object.keys(one.data.logs)).toContain('apply_output.txt');
      expect(one.log.length).toBeGreaterThan(0);
      expect(one.prediction.model_patch).toBe(fx.instance.patch);
      const page = await (await fetch(`${h.url}/runs/${gold.id}/items/${encodeURIComponent(id)}`)).text();
      expect(page).toContain('applied with');
      const board = await (await fetch(`${h.url}/leaderboard?dataset=demo-exec&task=exec`)).text();
      expect(board).toContain('gold');
    } finally {
      await h.stop();
    }
    expect(lines.filter((l) => l.includes('scored as run')).length).toBe(2);
  },
  120_000,
);
