/**
 * An execution-verification run through the API: SWE-bench style predictions for a small Python
 * repository, verified by @faun/harness on its local backend (host pytest, no containers): the gold
 * patch resolves, a wrong patch does not, an instance without a prediction is skipped.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pythonRepoFixture, startTestServer, type TestServer, waitForRun } from './testkit.ts';

const hasPytest = Bun.spawnSync(['python3', '-m', 'pytest', '--version']).exitCode === 0;

describe.if(hasPytest)('execution runs', () => {
  let s: TestServer;
  let root: string;
  let gold: string;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'faun-api-exec-'));
    const fx = pythonRepoFixture(root);
    gold = fx.gold;
    s = await startTestServer({
      db: 'memory://',
      serve: {
        verify: {
          backend: 'local',
          repoDirs: { [fx.repo]: fx.dir },
          timeoutS: 60,
          stateDir: join(root, 'state'),
        },
      },
    });
    const ids = ['acme__calc-1', 'acme__calc-2', 'acme__calc-3'];
    writeFileSync(
      join(s.dir, 'datasets', 'calc-exec.jsonl'),
      `${ids.map((instance_id) => JSON.stringify({ ...fx.instance, instance_id })).join('\n')}\n`,
    );
    await s.services.datasets.add(join(s.dir, 'datasets', 'calc-exec.jsonl'));
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    rmSync(root, { recursive: true, force: true });
  });

  test('gold resolves, a wrong patch fails, a missing prediction is skipped; tests and logs are shown', async () => {
    const wrong = gold.replace('+    return a + b', '+    return a * b');
    const r = await s.req('/v1/runs', {
      method: 'POST',
      json: {
        dataset: 'calc-exec',
        predictions: [
          { instance_id: 'acme__calc-1', model_patch: gold, model_name_or_path: 'm' },
          { instance_id: 'acme__calc-2', model_patch: wrong, model_name_or_path: 'm' },
        ],
      },
    });
    expect(r.status).toBe(202);
    const { id } = (await r.json()) as { id: string };
    const run = await waitForRun(s, id, 120_000);
    expect(run.status).toBe('done');
    const report = (await (await s.req(`/v1/runs/${id}/report`)).json()) as {
      counts: Record<string, number>;
      metrics: { resolved: { value: number; lo: number; hi: number } };
    };
    expect(report.counts).toEqual({ pass: 1, fail: 1, error: 0, timeout: 0, skipped: 1, scored: 0 });
    expect(report.metrics.resolved.value).toBeCloseTo(1 / 3, 10);
    const samples = (await (await s.req(`/v1/runs/${id}/samples`)).json()) as {
      items: {
        item_id: string;
        outcome: string;
        log: string | null;
        data: { execution?: { tests_status: Record<string, { success: string[]; failure: string[] }> } };
      }[];
    };
    const byId = Object.fromEntries(samples.items.map((x) => [x.item_id, x]));
    expect(byId['acme__calc-1']!.data.execution!.tests_status.FAIL_TO_PASS!.success).toEqual([
      'tests/test_calc.py::test_add',
    ]);
    expect(byId['acme__calc-2']!.data.execution!.tests_status.FAIL_TO_PASS!.failure).toEqual([
      'tests/test_calc.py::test_add',
    ]);
    expect(byId['acme__calc-1']!.log).toContain('test_add');
    const page = await (await s.req(`/runs/${id}`)).text();
    expect(page).toContain('FAIL_TO_PASS');
    expect(page).toContain(`/runs/${id}/items/acme__calc-1`);
    const item = await (await s.req(`/runs/${id}/items/acme__calc-1`)).text();
    expect(item).toContain('Test log');
    expect(item).toContain('tests/test_calc.py::test_add');
  }, 150_000);
});
