/** Parity with the reference implementations: every field of every row of text-dev.jsonl, and §8 of the spec. */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sharedPath } from '@faun/kit';
import { bleu, nltkCorpusBleu, nltkSentenceBleu } from './bleu/nltk.ts';
import { sacreCorpusBleu, sacreSentenceBleu } from './bleu/sacre.ts';
import { smoothBleu } from './bleu/smooth.ts';
import { fuzzRatio, indelRatio, levenshteinSim } from './editsim.ts';
import { exactMatch } from './em.ts';
import { pySplit } from './py.ts';
import { rouge1AndL, rougeN } from './rouge/rouge.ts';

type Row = Record<string, number | string>;
const INT_FIELDS = new Set(['fuzz_ratio_lev', 'fuzz_ratio_difflib', 'em', 'em_strip', 'em_split']);

/** Every vector field computed by this package for one pair (vector-file scales). */
function compute(hyp: string, ref: string): Record<string, number> {
  const plain = rouge1AndL(hyp, ref);
  const stem = rouge1AndL(hyp, ref, { stem: true });
  return {
    nltk_m1: bleu(hyp, ref),
    nltk_m4: nltkSentenceBleu([pySplit(ref)], pySplit(hyp), { smoothing: 4 }),
    cxg_smooth: smoothBleu(hyp, ref),
    sacre_sent: sacreSentenceBleu(hyp, ref),
    rouge1_f: plain.rouge1,
    rougeL_f: plain.rougeL,
    rouge1_f_stem: stem.rouge1,
    rougeL_f_stem: stem.rougeL,
    fuzz_ratio_lev: fuzzRatio(hyp, ref),
    fuzz_ratio_difflib: fuzzRatio(hyp, ref, 'difflib'),
    indel_ratio: 100 * indelRatio(hyp, ref),
    lev_sim: levenshteinSim(hyp, ref),
    em: exactMatch(hyp, ref),
    em_strip: exactMatch(hyp, ref, 'strip'),
    em_split: exactMatch(hyp, ref, 'split'),
  };
}

describe('text-dev.jsonl parity', () => {
  const path = sharedPath('data/metrics/text-dev.jsonl');
  test.skipIf(path === null)('every field of every row within 1e-6 (integer fields exactly)', () => {
    const rows = readFileSync(path!, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Row);
    expect(rows.length).toBeGreaterThan(200);
    const mismatches: string[] = [];
    let checked = 0;
    rows.forEach((r, i) => {
      const got = compute(String(r.hyp), String(r.ref));
      for (const [field, want] of Object.entries(r)) {
        if (field === 'hyp' || field === 'ref' || field === 'source') continue;
        const g = got[field];
        if (g === undefined) {
          mismatches.push(`row ${i + 1}: field ${field} is not computed`);
          continue;
        }
        checked++;
        const ok = INT_FIELDS.has(field) ? g === want : Math.abs(g - Number(want)) <= 1e-6;
        if (!ok) mismatches.push(`row ${i + 1} (${r.source}): ${field} = ${g}, want ${want}`);
      }
    });
    expect(mismatches).toEqual([]);
    expect(checked).toBe(rows.length * 15);
  });
});

describe('spec §8.1 BLEU variants', () => {
  const cases: [string, string, Record<number, number>][] = [
    [
      'The cat sat on the mat.',
      'The cat is on the mat.',
      { 0: 7.262e-78, 2: 0.485492, 3: 0.379918, 7: 0.410107 },
    ],
    ['return a + b', 'return a + b', { 0: 1, 2: 1, 3: 1, 7: 1.01063 }],
    ['Paris', 'Paris', { 0: 1.822e-231, 2: 0.594604, 3: 0.353553, 4: 1, 7: 0.19245 }],
    ['Paris', 'London', { 0: 0, 2: 0, 3: 0, 7: 0 }],
    ['', 'Paris', { 0: 0, 1: 0, 7: 0 }],
    ['x = foo(bar, baz)', 'x = foo(baz, bar)', { 2: 0.451801, 3: 0.319472, 4: 0.168219, 7: 0.258474 }],
    ['the the the the', 'the cat', { 1: 0.080343, 2: 0.319472, 3: 0.159736, 4: 0.061033, 7: 0.139472 }],
  ];
  for (const [hyp, ref, want] of cases)
    test(`${JSON.stringify(hyp)} vs ${JSON.stringify(ref)}`, () => {
      for (const [m, v] of Object.entries(want)) {
        const got = nltkSentenceBleu([pySplit(ref)], pySplit(hyp), { smoothing: Number(m) as 0 });
        if (v !== 0 && v < 1e-6) expect(got / v).toBeCloseTo(1, 3);
        else expect(got).toBeCloseTo(v, 5);
      }
    });

  test('corpus level over rows 1–3 (micro average, not the mean of sentences)', () => {
    const pairs = [
      ['The cat sat on the mat.', 'The cat is on the mat.'],
      ['return a + b', 'return a + b'],
      ['Paris', 'Paris'],
    ] as const;
    const corpus = nltkCorpusBleu(
      pairs.map(([, r]) => [pySplit(r)]),
      pairs.map(([h]) => pySplit(h)),
      { smoothing: 1 },
    );
    expect(corpus).toBeCloseTo(0.4774108847934616, 12);
    const meanSentence = pairs.reduce((s, [h, r]) => s + bleu(h, r), 0) / 3;
    expect(meanSentence).toBeCloseTo(0.47729810502706654, 12);
    expect(
      sacreCorpusBleu(
        pairs.map(([h]) => h),
        pairs.map(([, r]) => r),
      ),
    ).toBeCloseTo(0.6353634502233081, 10);
  });

  test('sacrebleu and CodeXGLUE on code-like rows', () => {
    expect(
      sacreSentenceBleu('def add(a, b):\n    return a + b', 'def add(x, y):\n    return x + y'),
    ).toBeCloseTo(0.227816, 6);
    expect(smoothBleu('for i in range(10): print(i)', 'for i in range(n):\n    print(i)')).toBeCloseTo(
      0.759836,
      6,
    );
    expect(smoothBleu('', 'Paris')).toBeCloseTo(0.367879, 6);
  });
});

describe('spec §8.2 extra cases', () => {
  test('edit similarity backends', () => {
    expect([fuzzRatio('aab', 'abab'), fuzzRatio('aab', 'abab', 'difflib')]).toEqual([86, 57]);
    expect(100 * indelRatio('aab', 'abab')).toBeCloseTo(85.714286, 6);
    expect(levenshteinSim('aab', 'abab')).toBeCloseTo(0.75, 12);
    expect([fuzzRatio('kitten', 'sitting'), fuzzRatio('kitten', 'sitting', 'difflib')]).toEqual([62, 62]);
    expect(levenshteinSim('kitten', 'sitting')).toBeCloseTo(0.571429, 6);
    expect(fuzzRatio('', '')).toBe(100);
    expect(fuzzRatio('abcdefgh', 'abcdexyz')).toBe(62); // round(62.5) is even
  });
  test('stemming and tokenisation', () => {
    expect(rougeN('the runner was running quickly', 'runners run quick').fmeasure).toBe(0);
    expect(
      rougeN('the runner was running quickly', 'runners run quick', 1, { stem: true }).fmeasure,
    ).toBeCloseTo(0.5, 12);
    expect(rougeN('dying generously', 'die generous').fmeasure).toBe(0);
    expect(rougeN('dying generously', 'die generous', 1, { stem: true }).fmeasure).toBeCloseTo(1, 12);
    expect(rougeN('A-B_C d.e 3.14', 'a b c d e 3 14').fmeasure).toBeCloseTo(1, 12);
  });
});
