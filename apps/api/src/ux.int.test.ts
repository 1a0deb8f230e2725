/**
 * The result pages in headless Chromium on hand-built data: unparsed outputs ranked at the floor, FL
 * answers that agree with EM, execution items stage by stage (apply log, flaky re-runs, contract, image
 * digest), no † over two items, per-dataset runs, one item's JSON, search and exports of exactly the
 * filtered rows, side by side comparison with its filters, usage, histograms and breakdowns. Every page
 * passes axe-core's WCAG 2.1 AA checks at 390 px and 1400 px without sideways scrolling, and works from
 * the keyboard. Screenshots go to test-output/ (with FAUN_UPDATE_SCREENSHOTS=1 to apps/api/docs/screenshots/).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';
import { CHROMIUM_ARGS, chromiumPath } from '@faun/services';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { closeAll } from './browser-testkit.ts';
import { startTestServer, type TestServer, waitForRun } from './testkit.ts';
import { execRun, recorded, writeDatasets } from './ux-fixtures.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SHOTS = process.env.FAUN_UPDATE_SCREENSHOTS
  ? join(REPO_ROOT, 'apps', 'api', 'docs', 'screenshots')
  : join(REPO_ROOT, 'test-output', 'pages');

let root: string;
let s: TestServer;
let browser: Browser;
const ctx: Record<number, BrowserContext> = {};
const run: Record<string, string> = {};
let data: ReturnType<typeof writeDatasets>;

async function submit(dataset: string, predictions: unknown[]): Promise<string> {
  const r = await s.req('/v1/runs', { method: 'POST', json: { dataset, predictions } });
  expect(r.status).toBe(202);
  const { id } = (await r.json()) as { id: string };
  expect((await waitForRun(s, id, 60_000)).status).toBe('done');
  return id;
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'faun-ux-'));
  data = writeDatasets(join(root, 'datasets'));
  s = await startTestServer({ db: 'memory://', serve: { datasetsDir: join(root, 'datasets') } });
  const { fl, ce, exec } = data;
  const gold = (i: number) => fl[i]!.gold_path;
  // FL: a fenced path (EM 1), a sentence naming the path (no answer: EM 0), nothing usable (unparsed)
  const flOut = (i: number) =>
    i === 0 ? `\`${gold(0)}\`` : i === 1 ? `The bug is in ${gold(1)}.` : i === 2 ? 'no idea' : gold(i);
  run.flA = await submit(
    'fl',
    fl.map((it, i) => recorded(it, 'test:recorded', flOut(i), i)),
  );
  run.flB = await submit(
    'fl',
    fl.map((it) => ({ v: 1, id: it.id, task: 'fl', model: 'test:util', output: 'src/util.py' })),
  );
  run.flC = await submit(
    'fl',
    fl.map((it, i) => ({
      v: 1,
      id: it.id,
      task: 'fl',
      model: 'test:half',
      output: i % 2 ? gold(i) : 'src/util.py',
    })),
  );
  const two = data.fl.slice(0, 2).map((it) => ({ ...it, id: `two/${it.id}` }));
  run.twoA = await submit(
    'fl-two',
    two.map((it) => ({ v: 1, id: it.id, task: 'fl', model: 'test:two-right', output: it.tree[0] })),
  );
  run.twoB = await submit(
    'fl-two',
    two.map((it) => ({ v: 1, id: it.id, task: 'fl', model: 'test:two-wrong', output: 'README.md' })),
  );
  // CE: a real but wrong edit against prose without a SEARCH/REPLACE block
  const wrong = '<<<<<<< SEARCH\n    return sum(xs) + 1\n=======\n    return sum(xs) - 1\n>>>>>>> REPLACE\n';
  run.ceEdit = await submit(
    'ce',
    ce.map((it) => ({ v: 1, id: it.id, task: 'ce', model: 'test:wrong-edit', output: wrong })),
  );
  run.ceProse = await submit(
    'ce',
    ce.map((it) => ({
      v: 1,
      id: it.id,
      task: 'ce',
      model: 'test:prose',
      output: 'Remove the + 1 in total().',
    })),
  );
  const kinds = ['resolved', 'flaky', 'tampered', 'resolved'] as const;
  run.execGood = await execRun(s, 'test:exec-good', exec, (i) => kinds[i % 4]!);
  run.execBad = await execRun(s, 'test:exec-bad', exec, (i) => (i % 2 ? 'apply_failed' : 'old'));
  browser = await chromium.launch({ executablePath: await chromiumPath(), args: CHROMIUM_ARGS });
  for (const width of [390, 1400])
    ctx[width] = await browser.newContext({ viewport: { width, height: 900 }, bypassCSP: true });
  mkdirSync(SHOTS, { recursive: true });
}, 240_000);

afterAll(() => closeAll(browser, s, root));

async function open(path: string, width = 1400): Promise<Page> {
  const page = await ctx[width]!.newPage();
  const res = await page.goto(`${s.url}${path}`);
  expect(res?.status(), path).toBe(200);
  return page;
}

const text = async (page: Page, sel: string) =>
  ((await page.locator(sel).first().textContent()) ?? '').trim();

test('an output without a SEARCH/REPLACE block is unparsed and ranks below a real but wrong edit', async () => {
  const lb = await open('/leaderboard?dataset=ce&task=ce');
  const rows = await lb.locator('#leaderboard tbody tr').all();
  expect(await rows[0]!.locator('td').nth(1).textContent()).toBe('test:wrong-edit');
  expect(await rows[1]!.locator('td').nth(1).textContent()).toBe('test:prose');
  const unparsedCol = (await lb.locator('#leaderboard thead th').allTextContents()).indexOf('Unparsed');
  expect(await rows[0]!.locator('td').nth(unparsedCol).textContent()).toBe('0');
  expect(await rows[1]!.locator('td').nth(unparsedCol).textContent()).toBe('3');
  const item = await open(`/runs/${run.ceProse}/items/${encodeURIComponent(data.ce[0]!.id)}`);
  expect(await text(item, 'h1')).toContain('unparsed');
  expect(await text(item, '#scores tbody tr')).toContain('0.000');
  const list = await open(`/runs/${run.ceProse}?status=unparsed`);
  expect(await list.locator('#items tbody tr').count()).toBe(3);
}, 60_000);

test('FL: EM is 1 exactly when the extracted answer equals the reference', async () => {
  const fenced = await open(`/runs/${run.flA}/items/${encodeURIComponent(data.fl[0]!.id)}`);
  expect(await text(fenced, '#answer')).toBe(await text(fenced, '#reference'));
  expect(await text(fenced, '#scores tbody tr')).toContain('1.000');
  const sentence = await open(`/runs/${run.flA}/items/${encodeURIComponent(data.fl[1]!.id)}`);
  expect(await sentence.locator('#answer').count()).toBe(0);
  expect(await text(sentence, '#scores tbody tr')).toContain('0.000');
  expect(await text(sentence, '#item-scores')).toContain('not a single path');
}, 60_000);

test('an execution item whose patch did not apply shows its apply log and tests not run', async () => {
  const id = data.exec[1]!.instance_id;
  const page = await open(`/runs/${run.execBad}/items/${encodeURIComponent(id)}`);
  expect(await page.locator('#FAIL_TO_PASS .badge').allTextContents()).toEqual(['not run']);
  expect(await page.locator('#PASS_TO_PASS .badge').allTextContents()).toEqual(['not run']);
  expect(await text(page, '#FAIL_TO_PASS thead')).toContain('the patch did not apply');
  expect(await page.locator('#log-apply_output-txt[open] pre').textContent()).toContain(
    'patch does not apply',
  );
  expect(await page.locator('#stages tbody tr').count()).toBe(3);
  expect(await text(page, '#stages tbody tr')).toContain('failed');
  // a result from before stages were recorded still gets an apply stage, and its tests
  const old = await open(`/runs/${run.execBad}/items/${encodeURIComponent(data.exec[0]!.instance_id)}`);
  expect(await old.locator('#stages tbody tr').count()).toBe(2);
  expect(await text(old, '#contract')).toContain('No determinism contract');
}, 60_000);

test('execution stages, flaky re-runs, tampering, the contract and the image digest', async () => {
  const flaky = await open(`/runs/${run.execGood}/items/${encodeURIComponent(data.exec[1]!.instance_id)}`);
  expect(await flaky.locator('#stages tbody td b').allTextContents()).toEqual([
    'apply',
    'build',
    'tests',
    'rerun-1',
  ]);
  expect(await text(flaky, '#FAIL_TO_PASS tbody tr')).toContain('flaky');
  expect(await text(flaky, '#FAIL_TO_PASS tbody tr')).toContain('1/2');
  expect(await text(flaky, '#contract')).toContain('sha256:4f2c9d0e');
  expect(await text(flaky, '#contract')).toContain('PYTHONHASHSEED');
  const tampered = await open(`/runs/${run.execGood}/items/${encodeURIComponent(data.exec[2]!.instance_id)}`);
  expect(await text(tampered, '#tampered')).toContain('test-infrastructure:conftest.py');
  const exec = await open(`/runs/${run.execGood}`);
  expect(await exec.locator('#by-created svg').count()).toBe(1);
  expect(await exec.locator('#by-language tbody tr').count()).toBe(2);
}, 60_000);

test('no † for a comparison over two items', async () => {
  const lb = await open('/leaderboard?dataset=fl-two&task=fl');
  expect(await lb.locator('#leaderboard .sig').count()).toBe(0);
  const cmp = await open(`/compare?runs=${run.twoA}&runs=${run.twoB}`);
  expect(await text(cmp, '#summary tbody tr:nth-child(2) td.p-value')).toContain('2 differing items');
  expect(await cmp.locator('#summary .sig').count()).toBe(0);
  const big = await open('/leaderboard?dataset=fl&task=fl');
  expect(await big.locator('#lb-language tbody tr').count()).toBe(3);
}, 60_000);

test('/runs?dataset= lists that dataset only; an item links to its own JSON', async () => {
  const runs = await open('/runs?dataset=ce');
  expect(new Set(await runs.locator('#runs tbody td:nth-child(2)').allTextContents())).toEqual(
    new Set(['ce']),
  );
  const item = await open(`/runs/${run.flA}/items/${encodeURIComponent(data.fl[3]!.id)}`);
  const href = await item.locator('p.sub a', { hasText: 'JSON' }).getAttribute('href');
  const one = (await (await s.req(href!)).json()) as { item_id: string; prediction: { output: string } };
  expect(one.item_id).toBe(data.fl[3]!.id);
  expect(one.prediction.output).toBe(data.fl[3]!.gold_path);
}, 60_000);

test('prompt as sent, tokens, latency, cost and cache hit per item; totals per run', async () => {
  const item = await open(`/runs/${run.flA}/items/${encodeURIComponent(data.fl[1]!.id)}`);
  expect(await text(item, '#prompt-check')).toContain('matches');
  expect(await text(item, '#usage')).toMatch(
    /tokens in\s*121.*tokens out\s*31.*latency\s*810 ms.*cost\s*\$0\.000200.*cache hit\s*yes/s,
  );
  expect(await text(item, '#model-output')).toContain('The bug is in');
  const page = await open(`/runs/${run.flA}`);
  expect(await text(page, '#usage')).toMatch(/tokens in\s*988/);
  const old = await open(`/runs/${run.flB}/items/${encodeURIComponent(data.fl[1]!.id)}`);
  expect(await text(old, '#prompt')).toContain('Not recorded');
  expect(await text(old, '#usage')).toMatch(/latency\s*—/);
}, 60_000);

test('search, exports of exactly the filtered rows, and links that keep the filters', async () => {
  const q = `?q=${encodeURIComponent('handler_with_a_long_name_5')}&sort=em&dir=desc`;
  const page = await open(`/runs/${run.flA}${q}`);
  const ids = await page.locator('#items tbody td.id').allTextContents();
  expect(ids).toEqual([data.fl[5]!.id]);
  const csv = await (await s.req((await page.locator('a', { hasText: 'CSV' }).getAttribute('href'))!)).text();
  expect(
    csv
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(',')[0]),
  ).toEqual(ids);
  const jsonl = await (
    await s.req((await page.locator('a', { hasText: 'JSONL' }).getAttribute('href'))!)
  ).text();
  expect(
    jsonl
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).item_id),
  ).toEqual(ids);
  const itemHref = await page.locator('#items tbody td.id a').getAttribute('href');
  expect(itemHref).toContain('q=handler_with_a_long_name_5');
  const all = await (await s.req(`/runs/${run.flA}/items.csv`)).text();
  expect(all.trim().split('\r\n')).toHaveLength(1 + data.fl.length);
}, 60_000);

test('side by side: 2–4 runs in columns, with the disagree / all failed / only X solved filters', async () => {
  const base = `/compare?runs=${run.flA}&runs=${run.flB}&runs=${run.flC}`;
  const page = await open(base);
  expect(await page.locator('section.side').first().locator('.run-col').count()).toBe(3);
  expect(
    await page.locator('section.side').first().locator('pre.diff, .run-col p.muted').count(),
  ).toBeGreaterThan(0);
  // flA solves every item but 1 and 2; flB none; flC the odd ones
  const count = async (show: string) => {
    const p = await open(`${base}&show=${show}`);
    return (await p.locator('section.side h3 code').allTextContents()).sort();
  };
  const id = (i: number) => data.fl[i]!.id;
  expect(await count('all-failed')).toEqual([id(2)].sort());
  expect(await count('only-0')).toEqual([id(0), id(4), id(6)].sort());
  expect(await count('only-2')).toEqual([id(1)].sort());
  expect(await count('disagree')).toHaveLength(7);
  const five = await ctx[1400]!.newPage();
  await five.goto(
    `${s.url}/compare?runs=${run.flA}&runs=${run.flB}&runs=${run.flC}&runs=${run.twoA}&runs=${run.twoB}`,
  );
  expect(await text(five, '#note')).toContain('at most 4');
}, 60_000);

test('histograms and per-repository / per-language breakdowns of text metrics', async () => {
  const page = await open(`/runs/${run.flA}`);
  expect(await page.locator('#histogram svg rect').count()).toBe(10);
  expect(await page.locator('#by-repo tbody tr').count()).toBe(2);
  expect(await page.locator('#by-language tbody tr').count()).toBe(2);
}, 60_000);

/** The axe-core violations of a page at WCAG 2.1 AA. */
async function axe(page: Page): Promise<{ id: string; nodes: { target: string[] }[] }[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const r = await (
      window as unknown as { axe: { run: (o: unknown) => Promise<{ violations: never[] }> } }
    ).axe.run({
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      // only violations are read: axe stops collecting every passing and inapplicable node
      resultTypes: ['violations'],
    });
    return r.violations;
  });
}

const pages = () => [
  ['leaderboard', '/leaderboard?dataset=fl&task=fl'],
  ['runs', '/runs'],
  ['run-fl', `/runs/${run.flA}`],
  ['run-exec', `/runs/${run.execGood}`],
  ['item-fl', `/runs/${run.flA}/items/${encodeURIComponent(data.fl[1]!.id)}`],
  ['item-ce', `/runs/${run.ceEdit}/items/${encodeURIComponent(data.ce[0]!.id)}`],
  ['item-exec-flaky', `/runs/${run.execGood}/items/${encodeURIComponent(data.exec[1]!.instance_id)}`],
  ['item-exec-apply-failed', `/runs/${run.execBad}/items/${encodeURIComponent(data.exec[1]!.instance_id)}`],
  ['compare', `/compare?runs=${run.flA}&runs=${run.flB}&runs=${run.flC}`],
  ['compare-pick', '/compare?dataset=fl'],
  ['datasets', '/datasets'],
  ['dataset', '/datasets/exec'],
  ['dataset-items', '/datasets/fl/items'],
];
for (const width of [390, 1400])
  test(`every page passes axe (WCAG 2.1 AA) and fits ${width} px`, async () => {
    const problems: string[] = [];
    for (const [name, path] of pages()) {
      const page = await open(path!, width);
      for (const v of await axe(page))
        problems.push(`${name}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      const over = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (over > 0) problems.push(`${name}: the page scrolls sideways by ${over} px`);
      if (width === 1400)
        for (const frame of await page.locator('.scroll').all())
          if (!(await frame.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)))
            problems.push(`${name}: ${await frame.getAttribute('aria-label')} overflows its frame`);
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      await page.close();
    }
    expect(problems).toEqual([]);
  }, 180_000);

test('the error page passes axe too', async () => {
  const page = await ctx[390]!.newPage();
  expect((await page.goto(`${s.url}/runs/nope`))?.status()).toBe(404);
  expect(await axe(page)).toEqual([]);
}, 30_000);

test('the keyboard reaches everything: skip link, filters, an item, back', async () => {
  const page = await open(`/runs/${run.flA}`);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineWidth);
  expect(Number.parseFloat(outline)).toBeGreaterThanOrEqual(2);
  await page.keyboard.press('Enter');
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const inItems = await page.evaluate(() => !!document.activeElement?.closest('#items td.id'));
    if (inItems) break;
  }
  expect(await page.evaluate(() => document.activeElement?.closest('#items td.id') !== null)).toBe(true);
  await Promise.all([page.waitForURL(/\/items\//), page.keyboard.press('Enter')]);
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
}, 60_000);
