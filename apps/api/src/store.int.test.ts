/** Dataset statistics over a real DuckDB store (`--store`): the curation funnel and store sizes. */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '@faun/store';
import { aggregateFunnel, cardFor, datasetFunnel } from './service/stats.ts';
import { flItems, startTestServer } from './testkit.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-api-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const row = (run_id: string, repo: string, order: number, input: number, output: number) => ({
  run_id,
  repo,
  step: ['closed issues', 'linked to a PR', 'one-to-one'][order]!,
  order,
  unit: 'issue' as const,
  input,
  removed: input - output,
  output,
  skipped: false,
  undecided: {},
});

test('the funnel sums steps over repositories of the latest curation run', () => {
  const rows = [
    row('c1', 'a/b', 0, 100, 80),
    row('c1', 'a/b', 1, 80, 50),
    row('c1', 'c/d', 0, 40, 30),
    row('c1', 'c/d', 1, 30, 10),
    row('c0', 'a/b', 0, 999, 1),
  ];
  expect(aggregateFunnel(rows)).toEqual([
    { step: 'input (issue)', count: 140 },
    { step: 'closed issues', count: 110 },
    { step: 'linked to a PR', count: 60 },
  ]);
  expect(aggregateFunnel([])).toEqual([]);
});

test("a dataset's funnel: its repositories only, then the build's drops, then its items", () => {
  const rows = [row('c1', 'a/b', 0, 100, 80), row('c1', 'a/b', 1, 80, 50), row('c1', 'x/y', 0, 999, 998)];
  expect(
    datasetFunnel(rows, new Set(['a/b']), {
      task: 'qa',
      items: 20,
      skipped: { 'no maintainer replied': 25 },
    }),
  ).toEqual([
    { step: 'input (issue)', count: 100 },
    { step: 'closed issues', count: 80 },
    { step: 'linked to a PR', count: 50 },
    { step: 'qa: no maintainer replied', count: 25 },
    { step: 'qa items in this dataset', count: 20 },
  ]);
});

test('the card beside a dataset gives its funnel when it lists that very file', async () => {
  const dir = join(root, 'built');
  mkdirSync(dir);
  const file = join(dir, 'fl.jsonl');
  writeFileSync(file, `${JSON.stringify(flItems(3)[0])}\n`);
  const sha = new Bun.CryptoHasher('sha256').update(readFileSync(file)).digest('hex');
  const card = {
    files: { 'fl.jsonl': { sha256: sha } },
    funnel: [row('', 'acme/widgets', 0, 9, 4)],
    skipped: {},
  };
  writeFileSync(join(dir, 'card.json'), JSON.stringify(card));
  expect((await cardFor(file, sha))?.funnel).toHaveLength(1);
  expect(await cardFor(file, 'other')).toBeNull();
  const s = await startTestServer({ db: 'memory://', serve: { datasetsDir: dir } });
  try {
    const st = (await (await s.req('/v1/datasets/fl/stats')).json()) as {
      funnel: unknown;
      funnel_source: string;
    };
    expect(st.funnel_source).toBe('card');
    expect(st.funnel).toEqual([
      { step: 'input (issue)', count: 9 },
      { step: 'closed issues', count: 4 },
      { step: 'fl items in this dataset', count: 1 },
    ]);
  } finally {
    await s.close();
  }
}, 60_000);

test('GET /v1/datasets/{name}/stats reads the funnel from the store; a bad store is a 503', async () => {
  const path = join(root, 'crawl.duckdb');
  const st = await Store.open(path);
  await st.putFunnel([
    row('c1', 'acme/widgets', 0, 50, 40),
    row('c1', 'acme/widgets', 1, 40, 25),
    row('c1', 'zeta/tools', 0, 10, 5),
    row('c1', 'other/repo', 0, 900, 800),
  ]);
  await st.close();
  const s = await startTestServer({ db: 'memory://', serve: { store: path } });
  try {
    const stats = (await (await s.req('/v1/datasets/fl-small/stats')).json()) as {
      funnel: { step: string; count: number }[];
      store_counts: Record<string, number>;
    };
    expect(stats.funnel).toEqual([
      { step: 'input (issue)', count: 60 },
      { step: 'closed issues', count: 45 },
      { step: 'linked to a PR', count: 25 },
      { step: 'fl items in this dataset', count: 30 },
    ]);
    // the funnel is the dataset's: a repository it does not hold is left out
    const qa = (await (await s.req('/v1/datasets/qa-small/stats')).json()) as typeof stats;
    expect(qa.funnel?.[0]).toEqual({ step: 'input (issue)', count: 60 });
    expect(stats.store_counts.pairs ?? 0).toBe(0);
    const page = await (await s.req('/datasets/fl-small')).text();
    expect(page).toContain('linked to a PR');
  } finally {
    await s.close();
  }
  const bad = await startTestServer({ db: 'memory://', serve: { store: join(root, 'missing.duckdb') } });
  try {
    const r = await bad.req('/v1/datasets/fl-small/stats');
    expect(r.status).toBe(503);
    expect(((await r.json()) as { error: { code: string } }).error.code).toBe('store_unavailable');
  } finally {
    await bad.close();
  }
}, 60_000);

/** Runs a script in another process (DuckDB locks are per process). */
function child(script: string) {
  return Bun.spawn(['bun', '-e', script], {
    cwd: import.meta.dir,
    stdin: 'pipe',
    stdout: 'pipe',
    stderr: 'inherit',
  });
}

test('the server does not hold the store: another process writes it between requests; busy → 503', async () => {
  const path = join(root, 'shared.duckdb');
  const st = await Store.open(path);
  await st.putFunnel([row('c1', 'acme/widgets', 0, 50, 40)]);
  await st.close();
  const s = await startTestServer({ db: 'memory://', serve: { store: path, storeCacheMs: 0 } });
  const funnel = async () =>
    ((await (await s.req('/v1/datasets/fl-small/stats')).json()) as { funnel: { count: number }[] }).funnel;
  try {
    expect(await funnel()).toEqual([
      { step: 'input (issue)', count: 50 },
      { step: 'closed issues', count: 40 },
      { step: 'fl items in this dataset', count: 30 },
    ] as never);
    // a writer in another process (as `faun curate` would be) succeeds while the server runs
    const writer = child(
      `const { Store } = await import('@faun/store');
       const st = await Store.open(${JSON.stringify(path)});
       await st.putFunnel([{ run_id: 'c2', repo: 'acme/widgets', step: 'closed issues', order: 0, unit: 'issue', input: 70, removed: 10, output: 60, skipped: false }]);
       await st.close();`,
    );
    expect(await writer.exited).toBe(0);
    expect((await funnel())[1]).toEqual({ step: 'closed issues', count: 60 } as never);
    // while a writer holds the file, the stats answer 503 with a retry hint
    const holder = child(
      `const { Store } = await import('@faun/store');
       const st = await Store.open(${JSON.stringify(path)});
       console.log('open');
       for await (const _ of console) break;
       await st.close();`,
    );
    const reader = holder.stdout.getReader();
    await reader.read();
    const busy = await s.req('/v1/datasets/fl-small/stats');
    expect(busy.status).toBe(503);
    expect(busy.headers.get('retry-after')).toBe('2');
    expect(((await busy.json()) as { error: { code: string } }).error.code).toBe('store_busy');
    holder.stdin.write('\n');
    await holder.stdin.end();
    expect(await holder.exited).toBe(0);
    expect((await s.req('/v1/datasets/fl-small/stats')).status).toBe(200);
  } finally {
    await s.close();
  }
}, 60_000);
