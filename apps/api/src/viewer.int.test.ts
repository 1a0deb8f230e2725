/**
 * Browser test of the sample viewer, run comparison and dataset browser on the demo's data: `faun demo
 * --verify never` builds the QA / FL / CE datasets and baseline predictions; a second prediction file
 * per task (half the items answered with the gold answer) makes the comparisons; an execution run
 * verifies the demo's generated Python instance on the local backend (host pytest). Headless Chromium
 * opens an item page of each and the comparison page, and saves screenshots under test-output/.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFixture } from '@faun/harness/testing';
import { REPO_ROOT } from '@faun/kit';
import type { BrowserContext, Page } from 'playwright-core';
import { closeAll, launchChromium } from './browser-testkit.ts';
import { startTestServer, type TestServer, waitForRun } from './testkit.ts';

const OUT = join(REPO_ROOT, 'test-output');
const MAIN = join(REPO_ROOT, 'apps', 'cli', 'src', 'main.ts');
const hasPytest = Bun.spawnSync(['python3', '-m', 'pytest', '--version']).exitCode === 0;

const readJsonl = (p: string) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const writeJsonl = (p: string, rows: unknown[]) =>
  writeFileSync(p, rows.map((r) => `${JSON.stringify(r)}\n`).join(''));

let root: string;
let s: TestServer;
let browser: BrowserContext;
const run: Record<string, string> = {};
const firstItem: Record<string, string> = {};

beforeAll(async () => {
  if (!hasPytest) return; // the tests below need it (test.if)
  root = mkdtempSync(join(tmpdir(), 'faun-viewer-'));
  const demo = join(root, 'demo');
  const p = Bun.spawnSync(['bun', MAIN, 'demo', '--out', demo, '--verify', 'never', '--entries', '300'], {
    env: { ...process.env, FAUN_CACHE_DIR: join(root, 'cache') },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (p.exitCode !== 0) throw new Error(`faun demo failed: ${p.stderr.toString().slice(-2000)}`);
  const ds = join(demo, 'datasets');
  const preds = join(demo, 'predictions');
  // a second "model" per task: the gold answer on every other item
  for (const task of ['qa', 'fl', 'ce'] as const) {
    const items = readJsonl(join(ds, `${task}.jsonl`));
    const gold = (it: Record<string, unknown>) =>
      String(task === 'qa' ? it.answer : task === 'fl' ? it.gold_path : it.gold_patch);
    writeJsonl(
      join(preds, `${task}-half-gold.jsonl`),
      items.map((it, i) => ({
        v: 1,
        id: it.id,
        task,
        model: 'test:half-gold',
        output: i % 2 === 0 ? gold(it) : '',
      })),
    );
  }
  // the demo's generated Python instance, verified on the host
  const fx = makeFixture('python', join(root, 'repos'));
  const exec = join(root, 'exec');
  mkdirSync(exec);
  writeJsonl(join(exec, 'demo-exec.jsonl'), [fx.instance]);
  s = await startTestServer({
    db: 'memory://',
    serve: {
      datasetsDir: ds,
      store: join(demo, 'faun.duckdb'),
      imports: [preds],
      verify: {
        backend: 'local',
        repoDirs: { [fx.repo]: fx.dir },
        timeoutS: 120,
        stateDir: join(root, 'state'),
      },
    },
  });
  await s.services.datasets.add(join(exec, 'demo-exec.jsonl'));
  const r = await s.req('/v1/runs', {
    method: 'POST',
    json: {
      dataset: 'demo-exec',
      predictions: [
        {
          instance_id: fx.instance.instance_id,
          model_patch: fx.instance.patch,
          model_name_or_path: 'gold',
        },
      ],
    },
  });
  const { id } = (await r.json()) as { id: string };
  expect((await waitForRun(s, id, 180_000)).status).toBe('done');
  run.exec = id;
  firstItem.exec = String(fx.instance.instance_id);
  const list = (await (await s.req('/v1/runs?per_page=100')).json()) as {
    items: { id: string; dataset: string; model: string }[];
  };
  for (const x of list.items) {
    if (x.dataset === 'exec' || x.dataset === 'demo-exec') continue;
    run[`${x.dataset}:${x.model}`] = x.id;
  }
  for (const task of ['qa', 'fl', 'ce'])
    firstItem[task] = String(readJsonl(join(ds, `${task}.jsonl`))[0]!.id);
  browser = await launchChromium(mkdtempSync(join(root, 'chromium-')));
  mkdirSync(OUT, { recursive: true });
}, 240_000);

afterAll(() => closeAll(browser, s, root));

const itemUrl = (runId: string, item: string) => `${s.url}/runs/${runId}/items/${encodeURIComponent(item)}`;
const open = async (url: string): Promise<Page> => {
  const page = await browser.newPage();
  const res = await page.goto(url);
  expect(res?.status()).toBe(200);
  return page;
};

test.if(hasPytest)(
  'a QA item shows the issue, the model output, the reference and its scores',
  async () => {
    const page = await open(itemUrl(run['qa:baseline:title']!, firstItem.qa!));
    expect(await page.locator('#input').textContent()).toContain('Issue body');
    expect((await page.locator('#model-output').textContent())!.length).toBeGreaterThan(0);
    expect((await page.locator('#reference').textContent())!.length).toBeGreaterThan(0);
    expect(await page.locator('#scores tbody tr').count()).toBe(4);
    await page.screenshot({ path: join(OUT, 'viewer-qa-item.png'), fullPage: true });
  },
  30_000,
);

test.if(hasPytest)(
  'an FL item shows the tree, the predicted and the gold path; next follows the list',
  async () => {
    const runId = run['fl:bm25']!;
    const page = await open(itemUrl(runId, firstItem.fl!));
    expect(await page.locator('#tree').count()).toBe(1);
    // the fixing PR comes from the store's pairs
    expect(await page.locator('p.sub a', { hasText: 'PR #' }).count()).toBe(1);
    const gold = (await page.locator('#reference').textContent())!;
    expect(await page.locator('#tree').textContent()).toContain(gold.trim());
    expect((await page.locator('#model-output').textContent())!.length).toBeGreaterThan(0);
    await page.screenshot({ path: join(OUT, 'viewer-fl-item.png'), fullPage: true });
    // the run page's rows are links; "next" (accesskey n) walks the filtered list
    const list = await open(`${s.url}/runs/${runId}?status=fail&sort=id`);
    const ids = await list.locator('#items tbody tr td.id').allTextContents();
    await list.click('#items tbody tr:first-child td.id a');
    expect(decodeURIComponent(list.url())).toContain(`/items/${ids[0]}`);
    if (ids.length > 1) {
      await Promise.all([list.waitForURL(/items/), list.click('#nav a[accesskey=n]')]);
      expect(decodeURIComponent(list.url())).toContain(`/items/${ids[1]}`);
      expect(list.url()).toContain('status=fail');
    }
  },
  30_000,
);

test.if(hasPytest)(
  'a CE item shows the SEARCH/REPLACE blocks and the diff of the edited file against gold',
  async () => {
    const page = await open(itemUrl(run['ce:baseline:no-edit']!, firstItem.ce!));
    expect(await page.locator('#gold-blocks .block').count()).toBeGreaterThan(0);
    expect(await page.locator('#file-diff span.add, #file-diff span.del').count()).toBeGreaterThan(0);
    expect(await page.locator('#apply-status').textContent()).toContain('no edit');
    expect(await page.locator('#scores tbody tr:first-child').textContent()).toContain(
      'CodeBLEU (edit text)',
    );
    await page.screenshot({ path: join(OUT, 'viewer-ce-item.png'), fullPage: true });
    const gold = await open(itemUrl(run['ce:test:half-gold']!, firstItem.ce!));
    expect(await gold.locator('#pred-blocks .block').count()).toBeGreaterThan(0);
    expect(await gold.locator('#file-diff').textContent()).toContain('equals the gold file');
  },
  30_000,
);

test.if(hasPytest)(
  'an execution item shows the patch, the apply result, each test status and the log',
  async () => {
    const page = await open(itemUrl(run.exec!, firstItem.exec!));
    expect(await page.locator('#patch span.add').count()).toBeGreaterThan(0);
    expect(await page.locator('#apply-status').textContent()).toContain('applied with');
    expect(await page.locator('#FAIL_TO_PASS tbody tr .badge').allTextContents()).toEqual(
      expect.arrayContaining(['passed']),
    );
    expect(await page.locator('#FAIL_TO_PASS tbody tr .badge').allTextContents()).not.toContain('failed');
    expect(await page.locator('#PASS_TO_PASS tbody tr').count()).toBeGreaterThan(0);
    expect((await page.locator('#log-test_output-txt pre').textContent())!.length).toBeGreaterThan(20);
    expect(await page.locator('#stages tbody tr').count()).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: join(OUT, 'viewer-exec-item.png'), fullPage: true });
  },
  30_000,
);

test.if(hasPytest)(
  'the comparison page shows per-item deltas, the p-value and the disagreements',
  async () => {
    const a = run['fl:bm25']!;
    const b = run['fl:test:half-gold']!;
    const page = await open(`${s.url}/compare?runs=${a}&runs=${b}`);
    const p = Number.parseFloat(
      (await page.locator('#summary tbody tr:nth-child(2) td.p-value').textContent())!,
    );
    expect(p).toBeGreaterThanOrEqual(0);
    expect(p).toBeLessThanOrEqual(1);
    expect(await page.locator('section.side').count()).toBeGreaterThan(0);
    expect(await page.locator('section.side .delta').count()).toBeGreaterThan(0);
    const dis = await open(`${s.url}/compare?runs=${a}&runs=${b}&show=disagree`);
    expect(await dis.locator('section.side').count()).toBeGreaterThan(0);
    await page.screenshot({ path: join(OUT, 'viewer-compare.png'), fullPage: true });
    // the leaderboard ranks CE by CodeBLEU of the edit text
    const lb = await open(`${s.url}/leaderboard?dataset=ce&task=ce`);
    expect(await lb.locator('#leaderboard thead th:nth-child(4)').textContent()).toContain(
      'CodeBLEU (edit text)',
    );
    await lb.screenshot({ path: join(OUT, 'viewer-leaderboard-ce.png'), fullPage: true });
  },
  30_000,
);

test.if(hasPytest)(
  'the dataset browser links each item to its issue and fixing PR; unknown names get HTML 404s',
  async () => {
    const page = await open(`${s.url}/datasets/fl/items`);
    const issues = await page.locator('#dataset-items tbody tr td:nth-child(4) a').count();
    const prs = await page.locator('#dataset-items tbody tr td:nth-child(5) a').count();
    const rows = await page.locator('#dataset-items tbody tr').count();
    expect(rows).toBeGreaterThan(0);
    expect(issues).toBe(rows);
    expect(prs).toBe(rows);
    await page.screenshot({ path: join(OUT, 'viewer-dataset-items.png'), fullPage: true });
    for (const path of [
      '/runs/nope',
      `/runs/${run.exec}/items/nope`,
      '/datasets/nope',
      '/datasets/nope/items',
      '/nowhere',
    ]) {
      const p = await browser.newPage();
      const res = await p.goto(`${s.url}${path}`);
      expect(res?.status()).toBe(404);
      expect(res?.headers()['content-type']).toContain('text/html');
      expect(await p.locator('#error').textContent()).toContain('404');
    }
    const api = await s.req('/v1/runs/nope');
    expect(api.headers.get('content-type')).toContain('application/json');
  },
  30_000,
);
