/**
 * Browser test: headless Chromium opens the leaderboard, a run page and a dataset page, checks that the
 * tables and the SVG charts render, and saves screenshots under test-output/.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';
import type { BrowserContext } from 'playwright-core';
import { closeAll, launchChromium } from './browser-testkit.ts';
import { flItems, flPredictions, startTestServer, type TestServer, waitForRun } from './testkit.ts';

const OUT = join(REPO_ROOT, 'test-output');
let s: TestServer;
let browser: BrowserContext;
let profile: string;
const runIds: string[] = [];

beforeAll(async () => {
  s = await startTestServer({ db: 'memory://' });
  const items = flItems(30);
  const models: [string, number][] = [
    ['openai:gpt-4o', 0.8],
    ['anthropic:claude', 0.65],
    ['bm25', 0.4],
    ['baseline:title', 0.15],
  ];
  for (const [model, rate] of models) {
    const preds = flPredictions(items, (i) => i < Math.round(rate * items.length), model);
    const r = await s.req('/v1/runs', { method: 'POST', json: { dataset: 'fl-small', predictions: preds } });
    const { id } = (await r.json()) as { id: string };
    await waitForRun(s, id);
    runIds.push(id);
  }
  profile = mkdtempSync(join(tmpdir(), 'faun-chromium-'));
  browser = await launchChromium(profile);
  mkdirSync(OUT, { recursive: true });
}, 90_000);

afterAll(() => closeAll(browser, s, profile));

test('the leaderboard shows a ranked table and a CI chart', async () => {
  const page = await browser.newPage();
  const res = await page.goto(`${s.url}/leaderboard?dataset=fl-small&task=fl`);
  expect(res?.status()).toBe(200);
  const models = await page.locator('#leaderboard tbody tr td:nth-child(2)').allTextContents();
  expect(models).toEqual(['openai:gpt-4o', 'anthropic:claude', 'bm25', 'baseline:title']);
  const chart = page.locator('svg.chart').first();
  expect(await chart.isVisible()).toBe(true);
  expect(await chart.locator('rect').count()).toBe(4);
  expect((await chart.boundingBox())!.width).toBeGreaterThan(300);
  await page.screenshot({ path: join(OUT, 'leaderboard.png'), fullPage: true });
}, 30_000);

test('a run page shows outcomes, metrics and a filterable item table', async () => {
  const page = await browser.newPage();
  await page.goto(`${s.url}/runs/${runIds[1]}`);
  expect(await page.locator('h1').textContent()).toContain(runIds[1]!);
  expect(await page.locator('#items tbody tr').count()).toBe(30);
  // outcomes, metrics, the EM histogram, per repository and per language
  expect(await page.locator('svg.chart').count()).toBe(5);
  await page.screenshot({ path: join(OUT, 'run.png'), fullPage: true });
  await page.selectOption('select[name=status]', 'fail');
  await Promise.all([page.waitForURL(/status=fail/), page.click('form.filters button')]);
  const outcomes = await page.locator('#items tbody tr .badge').allTextContents();
  expect(outcomes.length).toBe(30 - Math.round(0.65 * 30));
  expect(new Set(outcomes)).toEqual(new Set(['fail']));
  await page.goto(`${s.url}/runs/${runIds[1]}?metric=em&min=1`);
  expect(await page.locator('#items tbody tr').count()).toBe(Math.round(0.65 * 30));
  const em = await page.locator('#items tbody tr td:nth-child(4)').allTextContents();
  expect(em.length).toBe(Math.round(0.65 * 30));
  expect(new Set(em)).toEqual(new Set(['1.000']));
}, 30_000);

test('a dataset page shows per-repository counts and the length chart', async () => {
  const page = await browser.newPage();
  await page.goto(`${s.url}/datasets/fl-small`);
  expect(await page.locator('#repos tbody tr').count()).toBe(3);
  expect(await page.locator('svg.chart').count()).toBeGreaterThanOrEqual(2);
  await page.screenshot({ path: join(OUT, 'dataset.png'), fullPage: true });
}, 30_000);
