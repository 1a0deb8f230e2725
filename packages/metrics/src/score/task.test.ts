import { expect, test } from 'bun:test';
import { ItemScore } from '@faun/schema';
import { testCeItem, testFlItem } from '@faun/schema/testing';
import { formatSearchReplace } from '../edit/search-replace.ts';
import { scoreTask } from './task.ts';

const base = { v: 1, repo: 'o/r', issue_number: 1, issue_title: 't', issue_body: 'b' };
const pred = (id: string, task: string, output: string) => ({ v: 1, id, task, model: 'm:x', output });

/** A CE item whose gold edit turns `return 1` into `return 2`. */
const ceItem = (id: string) =>
  testCeItem(
    id,
    formatSearchReplace([{ path: null, search: '    return 1', replace: '    return 2', line: 0 }]),
  );

test('scoreTask: QA: hand-computed BLEU / ROUGE / EditSim; a missing prediction scores as empty', async () => {
  const items = ['q1', 'q2'].map((id) => ({
    ...base,
    id,
    language: 'python',
    task: 'qa',
    question_association: null,
    answer: 'the cat sat on the mat',
    answer_association: 'MEMBER',
  }));
  const r = await scoreTask('qa', items, [pred('q1', 'qa', 'the cat sat on a mat'), pred('zz', 'qa', 'x')]);
  const s = r.items[0]!.scores;
  // p1..p4 = 5/6, 3/5, 2/4, 1/3; BP = 1 → (1/12)^(1/4)
  expect(s.bleu).toBeCloseTo((1 / 12) ** 0.25, 12);
  expect(s.rouge1).toBeCloseTo(5 / 6, 12);
  expect(s.rougeL).toBeCloseTo(5 / 6, 12);
  // LCS of the characters = 15 ("the cat sat on ") + 4 (" mat") over 20 + 22 characters
  expect(s.editsim).toBeCloseTo(38 / 42, 12);
  expect(r.items[1]!.scores).toEqual({ bleu: 0, rougeL: 0, rouge1: 0, editsim: 0 });
  expect(r.items[1]!.missing).toBe(true);
  expect(r.missing).toEqual({ count: 1, ids: ['q2'] });
  expect(r.unknown).toEqual({ count: 1, ids: ['zz'] });
  expect(r.aggregate.bleu!.mean).toBeCloseTo((1 / 12) ** 0.25 / 2, 12);
  expect(r.aggregate.bleu!.low).toBeLessThanOrEqual(r.aggregate.bleu!.mean);
  for (const it of r.items) expect(ItemScore.safeParse(it).success).toBe(true);
  const again = await scoreTask('qa', items, [pred('q1', 'qa', 'the cat sat on a mat')], { seed: 0 });
  expect(again.aggregate).toEqual(r.aggregate);
});

test('scoreTask: FL: strict, lenient, top-k and MRR', async () => {
  const item = (id: string) => ({
    ...base,
    id,
    language: 'python',
    task: 'fl',
    base_commit: null,
    tree: ['a.py', 'pkg/b.py', 'pkg/c.py'],
    gold_path: 'pkg/b.py',
  });
  const r = await scoreTask(
    'fl',
    [item('f1'), item('f2'), item('f3')],
    [
      pred('f1', 'fl', '`pkg/b.py`'),
      pred('f2', 'fl', 'I think pkg/c.py, or maybe ./pkg/b.py'),
      pred('f3', 'fl', 'no idea'),
    ],
    { bootstrap: 0 },
  );
  expect(r.items.map((i) => i.scores)).toEqual([
    { em: 1, em_lenient: 1, top1: 1, top3: 1, top5: 1, mrr: 1 },
    { em: 0, em_lenient: 0, top1: 0, top3: 1, top5: 1, mrr: 0.5 },
    { em: 0, em_lenient: 0, top1: 0, top3: 0, top5: 0, mrr: 0 },
  ]);
  // the answer is what strict EM compares: a sentence has none (the note names its first tree path)
  expect(r.items.map((i) => i.answer)).toEqual(['pkg/b.py', null, null]);
  expect(r.items[1]!.note).toContain('first tree path mentioned: pkg/c.py');
  expect(r.items.map((i) => i.unparsed)).toEqual([false, false, true]);
  expect(r.unparsed).toEqual({ count: 1, ids: ['f3'] });
  expect(r.aggregate.mrr).toEqual({ metric: 'mrr', mean: 0.5, low: 0.5, high: 0.5, n: 3 });
  expect(r.aggregate.top3!.mean).toBeCloseTo(2 / 3, 12);
});

test('scoreTask: CE: gold edits score 1; an edit that does not apply is reported', async () => {
  const gold = ceItem('x').gold_patch;
  const item = ceItem;
  const good = `f.py\n\`\`\`python\n${gold}\`\`\`\n`;
  const bad = 'f.py\n<<<<<<< SEARCH\n    return 7\n=======\n    return 2\n>>>>>>> REPLACE\n';
  const r = await scoreTask(
    'ce',
    [item('c1'), item('c2'), item('c3')],
    [pred('c1', 'ce', good), pred('c2', 'ce', bad)],
    {
      bootstrap: 0,
    },
  );
  const [s1, s2, s3] = r.items;
  expect(s1!.scores).toEqual({ apply_rate: 1, file_em: 1, codebleu_patch: 1, codebleu_file: 1 });
  expect(s2!.scores.apply_rate).toBe(0);
  expect(s2!.scores.file_em).toBe(0);
  expect(s2!.scores.codebleu_file!).toBeLessThan(1);
  expect(s2!.note).toContain('block 1: no match');
  expect(s3!.missing).toBe(true);
  expect(s3!.note).toContain('no SEARCH/REPLACE block');
  expect(r.aggregate.apply_rate!.mean).toBeCloseTo(1 / 3, 12);
});

test('scoreTask: FL: EM is 1 exactly when the answer equals the gold path', async () => {
  const item = testFlItem(1, { id: 'f1', tree: ['pkg/b.py', 'pkg/c.py'], gold_path: './pkg/b.py' });
  for (const output of ['pkg/b.py', '`./pkg/b.py`', 'b/pkg/b.py', 'pkg/b.py:12', 'pkg\\b.py', 'pkg/c.py']) {
    const r = await scoreTask('fl', [item], [pred('f1', 'fl', output)], { bootstrap: 0 });
    const it = r.items[0]!;
    expect(it.scores.em, output).toBe(it.answer === 'pkg/b.py' ? 1 : 0);
  }
});

test('scoreTask: CE: an output without a SEARCH/REPLACE block is unparsed and ranks below a wrong edit', async () => {
  const item = ceItem;
  const wrong = 'f.py\n<<<<<<< SEARCH\n    return 1\n=======\n    return 1 + 0\n>>>>>>> REPLACE\n';
  const r = await scoreTask(
    'ce',
    [item('c1'), item('c2'), item('c3')],
    [pred('c1', 'ce', 'Change the return value to 2.'), pred('c2', 'ce', wrong), pred('c3', 'ce', '')],
    { bootstrap: 0 },
  );
  const [prose, edit, empty] = r.items;
  expect(prose!.unparsed).toBe(true);
  expect(prose!.scores).toEqual({ apply_rate: 0, file_em: 0, codebleu_patch: 0, codebleu_file: 0 });
  expect(prose!.answer).toBeNull();
  expect(prose!.note).toContain('unparsed');
  expect(edit!.unparsed).toBe(false);
  expect(edit!.scores.codebleu_patch!).toBeGreaterThan(prose!.scores.codebleu_patch!);
  expect(empty!.unparsed).toBe(true);
  expect(r.unparsed).toEqual({ count: 2, ids: ['c1', 'c3'] });
});

test('scoreTask: QA: a blank answer is unparsed', async () => {
  const item = {
    ...base,
    id: 'q1',
    language: 'python',
    task: 'qa',
    question_association: null,
    answer: 'yes',
    answer_association: 'MEMBER',
  };
  const r = await scoreTask('qa', [item], [pred('q1', 'qa', '  \n')], { bootstrap: 0 });
  expect(r.items[0]!.unparsed).toBe(true);
  expect(r.items[0]!.scores).toEqual({ bleu: 0, rougeL: 0, rouge1: 0, editsim: 0 });
});

test('scoreTask: bad records name their position, id and field', async () => {
  await expect(scoreTask('qa', [{ ...base, id: 'q1', task: 'qa' }], [])).rejects.toThrow(
    /dataset item #1 \(id q1\): language/,
  );
  await expect(scoreTask('fl', [], [{ id: 'x' }])).rejects.toThrow(/prediction #1 \(id x\): task/);
});
