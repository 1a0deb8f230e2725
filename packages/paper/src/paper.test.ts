import { expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPaper } from './index.ts';

/** A fixed study: 12 FL items and 6 QA items, two models, one ablation — generated here. */
function writeStudy(root: string) {
  const data = join(root, 'datasets');
  const preds = join(root, 'predictions');
  for (const d of [data, preds]) Bun.spawnSync(['mkdir', '-p', d]);
  const fl = Array.from({ length: 12 }, (_, i) => ({
    v: 1,
    id: `o/r#${i + 1}`,
    task: 'fl',
    repo: i < 6 ? 'o/r' : 'o/s',
    language: i < 6 ? 'python' : 'go',
    issue_number: i + 1,
    issue_title: `bug ${i}`,
    issue_body: 'x'.repeat(40 * (i + 1)), // increasing lengths → 4 items per tercile
    base_commit: null,
    tree: ['src/a.py', 'src/b.py', 'lib/c.go'],
    gold_path: i % 3 === 0 ? 'src/a.py' : i % 3 === 1 ? 'src/b.py' : 'lib/c.go',
  }));
  const qa = Array.from({ length: 6 }, (_, i) => ({
    v: 1,
    id: `o/r#q${i}`,
    task: 'qa',
    repo: 'o/r',
    language: 'python',
    issue_number: 100 + i,
    issue_title: 'how?',
    issue_body: 'please explain the thing',
    question_association: 'NONE',
    context: [],
    answer: `use the option number ${i} instead`,
    answer_association: 'MEMBER',
  }));
  writeFileSync(join(data, 'fl.jsonl'), fl.map((r) => JSON.stringify(r)).join('\n'));
  writeFileSync(join(data, 'qa.jsonl'), qa.map((r) => JSON.stringify(r)).join('\n'));
  const pred = (id: string, task: string, model: string, output: string, ablate: string[] = []) =>
    JSON.stringify({ v: 1, id, task, model, output, ablate });
  // model A: right on items 0..8 (9/12); B: right on 0..2 (3/12); A without the body: right on 0..5 (6/12)
  const flA = fl.map((r, i) => pred(r.id, 'fl', 'model-a', i < 9 ? r.gold_path : 'nowhere.py'));
  const flB = fl.map((r, i) => pred(r.id, 'fl', 'model-b', i < 3 ? `\`./${r.gold_path}\`` : 'src/zzz.py'));
  const flAbl = fl.map((r, i) => pred(r.id, 'fl', 'model-a', i < 6 ? r.gold_path : 'no.py', ['issue_body']));
  // QA: A repeats the answer exactly, B answers nothing (one item has no prediction at all)
  const qaA = qa.map((r) => pred(r.id, 'qa', 'model-a', r.answer));
  const qaB = qa.slice(1).map((r) => pred(r.id, 'qa', 'model-b', ''));
  writeFileSync(join(preds, 'fl-a.jsonl'), flA.join('\n'));
  writeFileSync(join(preds, 'fl-b.jsonl'), flB.join('\n'));
  writeFileSync(join(preds, 'fl-a-no-body.jsonl'), flAbl.join('\n'));
  writeFileSync(join(preds, 'qa-a.jsonl'), qaA.join('\n'));
  writeFileSync(join(preds, 'qa-b.jsonl'), qaB.join('\n'));
  return { data, preds };
}

const digest = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir)
      .sort()
      .map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex'),
      ]),
  );

test('paper tables match independently computed values and are byte-identical on re-run', async () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-paper-'));
  const { data, preds } = writeStudy(root);
  const out1 = join(root, 'out1');
  const { tables } = await buildPaper({
    datasets: data,
    predictions: preds,
    out: out1,
    seed: 1,
    resamples: 200,
  });

  const t4 = tables.find((t) => t.name === 'table4');
  if (!t4) throw new Error('no table4');
  expect(t4.columns.map((c) => c.label)).toEqual([
    'QA BLEU',
    'QA ROUGE-L',
    'QA ROUGE-1',
    'QA EditSim',
    'FL EM',
  ]);
  const row = (m: string) => t4.rows.find((r) => r.keys[0] === m);
  const em = t4.columns.findIndex((c) => c.key === 'fl.em');
  expect(row('model-a')?.cells[em]?.value).toBeCloseTo(9 / 12, 12);
  expect(row('model-b')?.cells[em]?.value).toBeCloseTo(3 / 12, 12);
  expect(row('model-a')?.cells[em]?.best).toBe(true);
  expect(row('model-b')?.cells[em]?.best).toBeUndefined();
  for (const c of [0, 1, 2, 3]) {
    expect(row('model-a')?.cells[c]?.value).toBeCloseTo(1, 12); // exact answers
    expect(row('model-b')?.cells[c]?.value).toBeCloseTo(0, 12); // empty answers, one missing
  }
  const cellA = row('model-a')?.cells[em];
  expect(cellA?.lo).toBeLessThanOrEqual(0.75);
  expect(cellA?.hi).toBeGreaterThanOrEqual(0.75);
  expect(row('model-b')?.cells[em]?.significant).toBe(true); // 9/12 vs 3/12 with 6 discordant items

  const abl = tables.find((t) => t.name === 'ablation');
  const ablRow = abl?.rows.find((r) => r.keys[0] === 'model-a' && r.keys[1] === 'issue_body');
  const ablCol = abl?.columns.findIndex((c) => c.key === 'fl.em') ?? -1;
  expect(ablRow?.cells[ablCol]?.value).toBeCloseTo(((6 / 12 - 9 / 12) / (9 / 12)) * 100, 9); // −33.33 %

  const len = tables.find((t) => t.name === 'length-fl');
  const lenRows = len?.rows.filter((r) => r.keys[0] === 'model-a') ?? [];
  expect(lenRows.map((r) => r.keys[1])).toEqual(['short', 'medium', 'long']);
  // A is right on items 0..8: all 4 short, all 4 medium, 1 of 4 long
  expect(lenRows.map((r) => r.cells[0]?.value)).toEqual([1, 1, 0.25]);
  expect(lenRows.map((r) => r.cells[0]?.n)).toEqual([4, 4, 4]);

  const lang = tables.find((t) => t.name === 'by-language-fl');
  const goB = lang?.rows.find((r) => r.keys[0] === 'model-b' && r.keys[1] === 'go');
  expect(goB?.cells[0]?.value).toBe(0); // B is right only on items 0..2 (python)

  const files = readdirSync(out1);
  for (const f of [
    'table4.md',
    'table4.tex',
    'table4.csv',
    'table4.json',
    'ablation.md',
    'length-fl.svg',
    'length-fl.png',
    'manifest.json',
  ])
    expect(files).toContain(f);
  expect(readFileSync(join(out1, 'table4.md'), 'utf8')).toContain('**75.00 [');
  const manifest = JSON.parse(readFileSync(join(out1, 'manifest.json'), 'utf8'));
  expect(Object.keys(manifest.predictions).sort()).toEqual([
    'fl-a-no-body.jsonl',
    'fl-a.jsonl',
    'fl-b.jsonl',
    'qa-a.jsonl',
    'qa-b.jsonl',
  ]);
  expect(manifest.datasets['fl.jsonl']).toBe(
    createHash('sha256')
      .update(readFileSync(join(data, 'fl.jsonl')))
      .digest('hex'),
  );

  const out2 = join(root, 'out2');
  await buildPaper({ datasets: data, predictions: preds, out: out2, seed: 1, resamples: 200 });
  expect(digest(out2)).toEqual(digest(out1));
}, 60_000);
