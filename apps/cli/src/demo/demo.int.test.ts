import { expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { outputOf } from '@faun/kit';

const MAIN = join(import.meta.dir, '..', 'main.ts');

function lines(file: string): unknown[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

test('faun demo runs the whole pipeline offline in a temporary folder and leaves every output', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'faun-demo-'));
  const out = join(cwd, 'demo');
  const proc = Bun.spawn(['bun', MAIN, 'demo', '--out', out, '--repos', '2', '--entries', '300'], {
    cwd,
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const { stdout, stderr, code } = await outputOf(proc);
  if (code !== 0 || !stdout.includes('resolved')) console.error(stdout.slice(-6000), stderr.slice(-4000));
  expect(code).toBe(0);
  expect(stdout).toContain('faun demo finished');
  for (const stage of ['crawl', 'curate', 'build', 'predict', 'score', 'verify', 'tables'])
    expect(stdout.toLowerCase()).toContain(stage);

  expect(existsSync(join(out, 'faun.duckdb'))).toBe(true);
  for (const task of ['qa', 'fl', 'ce']) {
    const items = lines(join(out, 'datasets', `${task}.jsonl`));
    expect(items.length).toBeGreaterThan(0);
    const scores = lines(join(out, 'scores', `${task}.jsonl`)) as { id: string }[];
    expect(scores.map((s) => s.id).sort()).toEqual((items as { id: string }[]).map((i) => i.id).sort());
  }
  expect(readdirSync(join(out, 'predictions')).sort()).toEqual([
    'ce-baseline_no-edit.jsonl',
    'fl-bm25.jsonl',
    'qa-baseline_title.jsonl',
  ]);
  const card = JSON.parse(readFileSync(join(out, 'datasets', 'card.json'), 'utf8')) as {
    content_hash: string;
  };
  expect(card.content_hash).toMatch(/^[0-9a-f]{64}$/);
  const tables = readdirSync(join(out, 'tables'));
  for (const f of ['table4.md', 'table4.tex', 'table4.csv', 'table4.json', 'manifest.json', 'tables.md'])
    expect(tables).toContain(f);
  expect(tables.some((f) => f.endsWith('.png'))).toBe(true);
  const table4 = readFileSync(join(out, 'tables', 'table4.md'), 'utf8');
  for (const model of ['bm25', 'baseline:title', 'baseline:no-edit']) expect(table4).toContain(model);
  // container verification of the generated instances: gold resolves everything, empty nothing
  const exec = JSON.parse(readFileSync(join(out, 'tables', 'execution.json'), 'utf8')) as {
    rows: { keys: string[]; cells: { value: number; n: number }[] }[];
  };
  const rate = (model: string) => exec.rows.find((r) => r.keys[0] === model && r.keys[1] === 'all')?.cells[0];
  expect(rate('gold')).toMatchObject({ value: 1, n: 2 });
  expect(rate('empty')).toMatchObject({ value: 0, n: 2 });
  // the command it prints to see the results loads the verification runs too
  expect(stdout).toMatch(/faun serve .*--import \S*predictions --import \S*execution/);
  const runs = readdirSync(join(out, 'logs'));
  expect(runs.length).toBeGreaterThanOrEqual(6);
  for (const r of runs) expect(existsSync(join(out, 'logs', r, 'header.json'))).toBe(true);
}, 300_000);

test('faun demo refuses to write into a folder it did not create', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'faun-demo-'));
  const precious = join(cwd, 'precious');
  Bun.spawnSync(['mkdir', '-p', precious]);
  await Bun.write(join(precious, 'thesis.tex'), 'important');
  const proc = Bun.spawn(['bun', MAIN, 'demo', '--out', precious], { cwd, stdout: 'pipe', stderr: 'pipe' });
  const [stderr, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  expect(code).toBe(2);
  expect(stderr).toContain('was not written by faun demo');
  expect(readFileSync(join(precious, 'thesis.tex'), 'utf8')).toBe('important');
}, 60_000);
