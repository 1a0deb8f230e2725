import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sharedPath } from '@faun/kit';
import { codebleu, corpusCodebleu, initCodeBleu } from './codebleu.ts';
import { CODEBLEU_FIELDS, type CodeBleuResult, type CodeLang } from './types.ts';

beforeAll(async () => {
  await initCodeBleu();
});

interface Row extends CodeBleuResult {
  lang: CodeLang;
  hyp: string;
  ref: string;
  source: string;
}

/**
 * Rows of the file computed under a PYTHONHASHSEED other than 0: the reference's dataflow on this row is
 * 61/62 under seeds 0-2, 4, 6, 7, 9-11 and 62/62 under seeds 3, 5 and 8 (the file's value). This port gives
 * the seed-0 values, which the reference printed for this row with PYTHONHASHSEED=0.
 */
const SEED_DEPENDENT: Record<string, Partial<CodeBleuResult>> = {
  'sindresorhus/ky@634cb2b3ec8d:source/core/Ky.ts': {
    dataflow_match_score: 0.9838709677419355,
    codebleu: 0.9239978411837232,
  },
};

describe('codebleu-dev.jsonl reference vectors', () => {
  const path = sharedPath('data/metrics/codebleu-dev.jsonl');
  test.if(path !== null)(
    'every row matches codebleu 0.7.1 within 1e-6 on every field',
    () => {
      const rows = readFileSync(path as string, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row);
      expect(rows.length).toBeGreaterThan(300);
      const mismatches: string[] = [];
      rows.forEach((row, i) => {
        const got = codebleu(row.ref, row.hyp, row.lang);
        const want = { ...row, ...SEED_DEPENDENT[row.source] };
        for (const f of CODEBLEU_FIELDS) {
          if (!(Math.abs(got[f] - want[f]) <= 1e-6)) {
            mismatches.push(`row ${i + 1} (${row.lang}, ${row.source}) ${f}: got ${got[f]}, want ${want[f]}`);
          }
        }
      });
      expect(mismatches).toEqual([]);
    },
    60_000,
  );
});

describe('driver', () => {
  test('throws a clear error for an unsupported language', () => {
    expect(() => codebleu('a', 'a', 'ruby' as CodeLang)).toThrow(/unsupported language 'ruby'/);
  });

  test('corpus level accumulates components over pairs (not a mean of per-pair scores)', () => {
    const pairs = [
      { refs: 'def f(x):\n    return x + 1', hyp: 'def f(x):\n    return x + 1' },
      { refs: 'print(a)', hyp: 'x = 1' },
    ];
    const corpus = corpusCodebleu(pairs, 'python');
    // syntax: pair 1 has 6 reference subtrees all matched; pair 2 has 4, none matched → 6/10
    expect(corpus.syntax_match_score).toBeCloseTo(0.6, 12);
    const a = codebleu(pairs[0]!.refs, pairs[0]!.hyp, 'python');
    const b = codebleu(pairs[1]!.refs, pairs[1]!.hyp, 'python');
    expect(corpus.syntax_match_score).not.toBeCloseTo((a.syntax_match_score + b.syntax_match_score) / 2, 6);
  });

  test('weights are configurable and dataflow 0 counts as 1 unless fixed', () => {
    const r = codebleu("print('hello')", 'x = 1', 'python', { weights: [0, 0, 0, 1] });
    expect(r.dataflow_match_score).toBe(0);
    expect(r.codebleu).toBe(1);
    expect(codebleu("print('hello')", 'x = 1', 'python', { fixDataflowZero: true }).codebleu).toBe(0);
  });

  test('multiple references are accepted', () => {
    const r = codebleu(['return a + b', 'return b + a'], 'return a + b', 'python');
    expect(r.ngram_match_score).toBe(1);
  });

  test('deeply nested inputs give defined scores and leave the runtime usable', () => {
    for (const n of [150, 3_000, 30_000]) {
      const code = `x = ${'('.repeat(n)}1${')'.repeat(n)}`;
      for (const lang of ['python', 'java', 'javascript', 'typescript', 'go'] as const) {
        const r = codebleu(code, code, lang);
        expect(r.syntax_match_score).toBe(1);
        expect(Number.isFinite(r.codebleu)).toBe(true);
      }
    }
    expect(codebleu('def f(x):\n    return x', 'def f(x):\n    return x', 'python').codebleu).toBe(1);
  }, 60_000);

  test('empty, broken and huge inputs give defined scores', () => {
    for (const lang of ['python', 'java', 'javascript', 'typescript', 'go'] as const) {
      const e = codebleu('', '', lang);
      expect(e.syntax_match_score).toBe(1);
      expect(e.codebleu).toBe(0.5);
      const broken = codebleu('if (x) { return [1, 2', ')))( {{ ]] "unterminated', lang);
      expect(Number.isFinite(broken.codebleu)).toBe(true);
    }
    // 1 MB per side keeps the suite quick; 5 MB inputs take proportionally longer (linear) and are measured
    // by the timing script
    const line = 'x = foo(a, b) + [1, 2, 3]  # note\n';
    const huge = line.repeat(Math.ceil(1_000_000 / line.length));
    const r = codebleu(huge, `${huge}y = 2\n`, 'python');
    expect(r.codebleu).toBeGreaterThan(0.99);
    expect(r.dataflow_match_score).toBe(1);
  }, 90_000);
});
