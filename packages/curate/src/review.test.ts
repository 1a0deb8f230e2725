import { describe, expect, test } from 'bun:test';
import { DEFAULT_FILTERS } from './filters.ts';
import { curateRepo } from './funnel.ts';
import { applyReview, cohensKappa, keep, readReview, reviewRows, toCsv } from './review.ts';
import { parseVerdict, semanticCheck, semanticPrompt } from './semantic.ts';
import { plantedRepo } from './test-corpus.ts';

describe("Cohen's kappa", () => {
  test('matches a hand-computed value', () => {
    // 10 items: both yes 4, both no 3, r1 yes/r2 no 2, r1 no/r2 yes 1.
    // p_o = 7/10 = 0.7; r1 yes = 6/10, r2 yes = 5/10; p_e = 0.6*0.5 + 0.4*0.5 = 0.5; kappa = 0.2/0.5 = 0.4
    const pairs: Array<[boolean, boolean]> = [
      ...Array.from({ length: 4 }, (): [boolean, boolean] => [true, true]),
      ...Array.from({ length: 3 }, (): [boolean, boolean] => [false, false]),
      ...Array.from({ length: 2 }, (): [boolean, boolean] => [true, false]),
      [false, true],
    ];
    expect(cohensKappa(pairs)).toBeCloseTo(0.4, 12);
  });
  test('edge cases: empty, perfect agreement on a single answer, total disagreement', () => {
    expect(cohensKappa([])).toBeNull();
    expect(cohensKappa([[true, true]])).toBe(1);
    expect(
      cohensKappa([
        [true, false],
        [false, true],
      ]),
    ).toBe(-1);
  });
});

describe('keep rules', () => {
  test('both / llm+one / any-two / all / either / llm', () => {
    expect(keep('both', 'unclear', true, true)).toBe(true);
    expect(keep('both', 'clear', true, null)).toBe(false);
    expect(keep('llm+one', 'clear', false, true)).toBe(true);
    expect(keep('llm+one', 'unclear', true, true)).toBe(false);
    expect(keep('any-two', 'clear', true, false)).toBe(true);
    expect(keep('any-two', 'clear', false, false)).toBe(false);
    expect(keep('all', 'clear', true, true)).toBe(true);
    expect(keep('either', 'skipped', null, true)).toBe(true);
    expect(keep('llm', 'clear', false, false)).toBe(true);
  });
});

describe('semantic check with a scripted model', () => {
  test('labels, reasons, errors and the review round trip', async () => {
    const { pairs } = await curateRepo(plantedRepo(), DEFAULT_FILTERS, async (_r, pr) => pr.number === 23);
    expect(pairs.length).toBe(2);
    const prompts: string[] = [];
    const script = ['{"clear": true, "reason": "fixes the crash"}', 'no, the PR only renames things'];
    const labels = await semanticCheck(
      pairs,
      async (p) => {
        prompts.push(p);
        return script[prompts.length - 1] ?? '';
      },
      'mock:x',
    );
    expect(labels.map((l) => [l.issue, l.llm, l.reason])).toEqual([
      [1, 'clear', 'fixes the crash'],
      [28, 'unclear', 'no, the PR only renames things'],
    ]);
    expect(prompts[0]).toContain('## Issue #1: Renderer crash 1');
    expect(semanticPrompt(pairs[0] as (typeof pairs)[0])).toBe(prompts[0] as string);

    const failing = await semanticCheck(
      pairs.slice(0, 1),
      async () => Promise.reject(new Error('boom')),
      'm',
    );
    expect(failing[0]).toMatchObject({ llm: 'error', reason: 'model call failed: boom' });
    const none = await semanticCheck(pairs, null, null);
    expect(none.map((l) => l.llm)).toEqual(['skipped', 'skipped']);

    const rows = reviewRows(labels, new Map([['acme/widget#1', 'Renderer, "crash" 1']]));
    rows[0] = { ...rows[0]!, reviewer_1: 'yes', reviewer_2: 'Y' };
    rows[1] = { ...rows[1]!, reviewer_1: 'no', reviewer_2: 'yes' };
    const back = readReview(toCsv(rows), 'review.csv');
    expect(back).toEqual(rows);
    const jsonl = readReview(rows.map((r) => JSON.stringify(r)).join('\n'), 'review.jsonl');
    expect(jsonl).toEqual(rows);
    const out = applyReview(back, 'llm+one', 'review.csv');
    expect([...out.kept]).toEqual([
      ['acme/widget#1:2', true],
      ['acme/widget#28:29', false],
    ]);
    expect(out.kappa.reviewers).toBe(0);
    expect(out.reviewed).toBe(2);
  });
  test('verdict parsing', () => {
    expect(parseVerdict('```json\n{"clear": false, "reason": "vague"}\n```')).toEqual({
      label: 'unclear',
      reason: 'vague',
    });
    expect(parseVerdict('Yes. It is clear.').label).toBe('clear');
    expect(parseVerdict('I am not sure').label).toBe('error');
  });
  test('a bad decision cell names the row and column', () => {
    const rows = reviewRows(
      [{ repo: 'a/b', issue: 1, pr: 2, llm: 'clear', reason: '', model: null }],
      new Map(),
    );
    rows[0] = { ...rows[0]!, reviewer_1: 'maybe' };
    expect(() => applyReview(rows, 'both', 'r.csv')).toThrow('r.csv: row 1 (a/b#1): reviewer_1: "maybe"');
  });
});

describe('semantic check concurrency', () => {
  test('labels keep the input order whatever order the answers arrive in', async () => {
    const { pairs } = await curateRepo(plantedRepo(), DEFAULT_FILTERS, async (_r, pr) => pr.number === 23);
    const delays = [30, 0];
    let calls = 0;
    const labels = await semanticCheck(
      pairs,
      async (p) => {
        const k = calls++;
        await Bun.sleep(delays[k] ?? 0);
        return p.includes('Issue #1:') ? 'yes' : 'no';
      },
      'm',
      undefined,
      2,
    );
    expect(labels.map((l) => [l.issue, l.llm])).toEqual([
      [1, 'clear'],
      [28, 'unclear'],
    ]);
  });
});
