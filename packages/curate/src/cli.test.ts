import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandContext } from '@faun/kit';
import { sharedPath } from '@faun/kit';
import { MemoryStore } from '../testing/memory-store.ts';
import { commands, runBuild, runCurate } from './cli.ts';
import { plantedRepo } from './test-corpus.ts';
// Registers the echo test provider named in --semantic-check below.
import '@faun/models/testing';

const tmp = await mkdtemp(join(tmpdir(), 'faun-curate-cli-'));
afterAll(() => rm(tmp, { recursive: true, force: true }));

function ctx(opts: Record<string, unknown>, sources: Record<string, string> = {}) {
  const lines: string[] = [];
  const json: unknown[] = [];
  const c: CommandContext = {
    opts: { keepRule: 'both', ...opts },
    args: [],
    sources: sources as CommandContext['sources'],
    argv: [],
    json: false,
    quiet: true,
    logDir: tmp,
    log: (l) => lines.push(l),
    emitJson: (v) => json.push(v),
    result: (l: string) => lines.push(l),
    progress: () => ({ setTotal() {}, tick() {}, status() {}, done() {} }),
  };
  return { c, lines, json };
}

describe('the commands; faun curate', () => {
  test('both commands are exported', () => {
    expect(commands.map((c) => c.name)).toEqual(['curate', 'build']);
  });

  test('curate prints and stores the funnel, writes the review sheet, then imports decisions', async () => {
    const store = new MemoryStore().add(plantedRepo());
    const open = async () => store;
    const review = join(tmp, 'review');
    const a = ctx({ db: 'x.duckdb', reviewOut: review });
    expect(await runCurate(a.c, open)).toBe(0);
    const table = a.lines.join('\n');
    expect(table).toMatch(/acme\/widget\s+shortBody\s+issue\s+19\s+1\s+18/);
    expect(table).toMatch(/\(total\)\s+semantic\s+pair\s+3\s+0\s+3\s+skipped/);
    expect(table).toContain('agreement 50.0%');
    expect(store.funnelRows.length).toBe(15);
    const csv = await readFile(`${review}.csv`, 'utf8');
    expect(csv.split('\n')[0]).toBe(
      'repo,issue,pr,issue_title,issue_url,pr_url,llm,llm_reason,reviewer_1,reviewer_2,notes',
    );
    // Reviewers: #1 yes/yes, #22 yes/no, #28 no/no  → po = 2/3, pe = (2/3·1/3 + 1/3·2/3) = 4/9 → kappa = 0.4
    const filled = csv
      .replace(/(acme\/widget,1,2,.*?,skipped,[^,]*,),,/, '$1yes,yes,')
      .replace(/(acme\/widget,22,23,.*?,skipped,[^,]*,),,/, '$1yes,no,')
      .replace(/(acme\/widget,28,29,.*?,skipped,[^,]*,),,/, '$1no,no,');
    await writeFile(join(tmp, 'filled.csv'), filled);
    const b = ctx({ db: 'x.duckdb', reviewIn: join(tmp, 'filled.csv'), keepRule: 'either' });
    expect(await runCurate(b.c, open)).toBe(0);
    expect(b.lines.join('\n')).toContain("Cohen's kappa reviewers 0.400");
    expect(store.pairList.map((p) => [p.issue, p.semantic?.reviewer_1, p.semantic?.reviewer_2])).toEqual([
      [1, true, true],
      [22, true, false],
    ]);
    expect(store.funnelRows.find((r) => r.step === 'semantic')).toMatchObject({ removed: 1, skipped: false });
  });

  test('--semantic-check with a real @faun/models provider (echo) labels and filters the pairs', async () => {
    const store = new MemoryStore().add(plantedRepo());
    await runCurate(ctx({ db: 'x.duckdb' }).c, async () => store);
    expect(store.pairList.length).toBe(3);
    const a = ctx({ db: 'x.duckdb', semanticCheck: 'echo:no' });
    expect(await runCurate(a.c, async () => store)).toBe(0);
    expect(store.funnelRows.find((r) => r.step === 'semantic')).toMatchObject({
      input: 3,
      removed: 3,
      skipped: false,
    });
    expect(store.pairList).toEqual([]);
    const b = ctx({ db: 'x.duckdb', semanticCheck: 'echo:yes' });
    expect(await runCurate(b.c, async () => store)).toBe(0);
    expect(
      store.pairList.map((p) => [p.issue, p.semantic?.llm, p.semantic?.model, p.semantic?.rule]),
    ).toEqual([
      [1, 'clear', 'echo:yes', 'llm'],
      [22, 'clear', 'echo:yes', 'llm'],
      [28, 'clear', 'echo:yes', 'llm'],
    ]);
  });

  test('--review-in and --review-out together is a usage error', async () => {
    const a = ctx({ db: 'x', reviewIn: 'a.csv', reviewOut: 'b' });
    await expect(runCurate(a.c, async () => new MemoryStore())).rejects.toThrow('not both');
  });
});

describe('faun build', () => {
  test('build from the store without a source writes QA only (FL/CE skipped with reasons)', async () => {
    const store = new MemoryStore().add(plantedRepo());
    await runCurate(ctx({ db: 'x.duckdb' }).c, async () => store);
    const out = join(tmp, 'ds');
    const b = ctx({ db: 'x.duckdb', out, tasks: ['qa', 'fl', 'ce'] });
    expect(await runBuild(b.c, async () => store)).toBe(0);
    const card = JSON.parse(await readFile(join(out, 'card.json'), 'utf8'));
    expect(card.counts).toEqual({ ce: 0, fl: 0, qa: 3 });
    expect(card.skipped.ce).toEqual({ 'no file source (--repo-dir or --api-url)': 3 });
    expect(card.funnel.at(-1)).toMatchObject({ repo: '(total)', step: 'semantic' });
    expect(store.taskItems.get('x/qa')?.length).toBe(3);
    // both commands leave a run record: header, one sample per pair / dataset file, summary
    const runs = await readdir(tmp);
    const buildRun = runs.find((r) => /-build-/.test(r));
    const curateRun = runs.find((r) => /-curate-/.test(r));
    if (!buildRun || !curateRun) throw new Error(`no run records in ${tmp}: ${runs.join(', ')}`);
    const summary = JSON.parse(await readFile(join(tmp, buildRun, 'summary.json'), 'utf8'));
    expect(summary.status).toBe('success');
    expect(summary.outputs).toEqual({ datasets: out });
    const samples = (await readFile(join(tmp, buildRun, 'samples.jsonl'), 'utf8')).trim().split('\n');
    expect(samples.map((l) => JSON.parse(l).id)).toContain('qa.jsonl');
    expect(JSON.parse(await readFile(join(tmp, curateRun, 'header.json'), 'utf8')).command).toBe('curate');
  });

  const rows = sharedPath('data/swebench-lite/with-files.jsonl');
  test.skipIf(rows === null)('build --from-swebench: FL and CE only by default, stable hash', async () => {
    const hashes: string[] = [];
    for (const k of [1, 2]) {
      const b = ctx(
        { fromSwebench: rows, out: join(tmp, `sb${k}`), tasks: ['qa', 'fl', 'ce'] },
        { tasks: 'default' },
      );
      expect(await runBuild(b.c)).toBe(0);
      hashes.push(JSON.parse(await readFile(join(tmp, `sb${k}`, 'card.json'), 'utf8')).content_hash);
    }
    expect(hashes[0]).toBe(hashes[1] as string);
    const card = JSON.parse(await readFile(join(tmp, 'sb1', 'card.json'), 'utf8'));
    expect(card.counts).toEqual({ ce: 26, fl: 26 });
    expect(card.skipped).toEqual({});
  });
});
