/** The commands end to end: `bun apps/cli/src/main.ts score-pairs|score …` in a temp dir. */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, sharedPath } from '@faun/kit';
import { testCeItem, testIssue } from '@faun/schema/testing';
import { codebleu, initCodeBleu } from '../codebleu/index.ts';
import { formatSearchReplace } from '../edit/search-replace.ts';
import { scorePair } from '../pairs.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-metrics-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const MAIN = join(REPO_ROOT, 'apps/cli/src/main.ts');

function faun(args: string[]): { code: number; stdout: string; stderr: string } {
  const p = Bun.spawnSync(['bun', MAIN, ...args, '--log-dir', join(dir, 'logs')], {
    cwd: dir,
    env: { ...process.env, CI: '1' },
  });
  return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
}
const readJsonl = (p: string) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const VECTOR_FIELDS = [
  'nltk_m1',
  'nltk_m4',
  'sacre_sent',
  'cxg_smooth',
  'rouge1_f',
  'rougeL_f',
  'rouge1_f_stem',
  'rougeL_f_stem',
  'fuzz_ratio_lev',
  'fuzz_ratio_difflib',
  'indel_ratio',
  'lev_sim',
  'em',
  'em_strip',
  'em_split',
];

describe('faun score-pairs', () => {
  const textDev = sharedPath('data/metrics/text-dev.jsonl');
  test.skipIf(textDev === null)(
    '--metric all on text-dev.jsonl: same as the library and the vectors',
    () => {
      const out = join(dir, 'text-all.jsonl');
      const r = faun(['score-pairs', '--metric', 'all', '--input', textDev!, '--out', out]);
      expect(r.stderr).toContain(', 0 errors');
      expect(r.code).toBe(0);
      const want = readJsonl(textDev!);
      const got = readJsonl(out);
      expect(got.length).toBe(want.length);
      got.forEach((g, i) => {
        const w = want[i]!;
        expect(g.hyp).toBe(w.hyp);
        const lib = scorePair('all', String(w.hyp), String(w.ref));
        for (const f of VECTOR_FIELDS) {
          expect(g[f]).toBe(lib[f]);
          expect(Math.abs(Number(g[f]) - Number(w[f]))).toBeLessThanOrEqual(1e-6);
        }
      });
      const runs = readdirSync(join(dir, 'logs')).filter((d) => d.includes('score-pairs'));
      expect(runs.length).toBeGreaterThan(0);
      const summary = JSON.parse(readFileSync(join(dir, 'logs', runs[0]!, 'summary.json'), 'utf8'));
      expect(summary.metrics.lines).toBe(want.length);
    },
    60_000,
  );

  test('single metrics and variants write only their field', () => {
    const input = join(dir, 'one.jsonl');
    writeFileSync(
      input,
      `${JSON.stringify({ hyp: 'The cat sat on the mat.', ref: 'The cat is on the mat.' })}\n`,
    );
    const r = faun(['score-pairs', '--metric', 'bleu', '--variant', 'm4', '--input', input]);
    expect(r.code).toBe(0);
    const row = JSON.parse(r.stdout.trim());
    expect(Object.keys(row).sort()).toEqual(['hyp', 'nltk_m4', 'ref']);
    expect(row.nltk_m4).toBeCloseTo(0.293946, 6);
    const bad = faun(['score-pairs', '--metric', 'sacrebleu', '--variant', 'm4', '--input', input]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('has no variants');
  });

  const codeDev = sharedPath('data/metrics/codebleu-dev.jsonl');
  test.skipIf(codeDev === null)(
    '--metric codebleu on codebleu-dev.jsonl rows: same as the library',
    async () => {
      const rows = readJsonl(codeDev!).slice(0, 40);
      const input = join(dir, 'code.jsonl');
      writeFileSync(
        input,
        rows.map((r) => JSON.stringify({ hyp: r.hyp, ref: r.ref, lang: r.lang })).join('\n'),
      );
      const out = join(dir, 'code-out.jsonl');
      const r = faun(['score-pairs', '--metric', 'codebleu', '--input', input, '--out', out]);
      expect(r.code).toBe(0);
      const got = readJsonl(out);
      expect(got.length).toBe(rows.length);
      await initCodeBleu();
      got.forEach((g, i) => {
        const w = rows[i]!;
        const lib = codebleu(String(w.ref), String(w.hyp), w.lang as 'python');
        expect(g.codebleu).toBe(lib.codebleu);
        expect(g.dataflow_match_score).toBe(lib.dataflow_match_score);
      });
      // The worked examples C1 (identical) and C2 (codebleu README value).
      expect(got[0]!.codebleu).toBe(1);
      expect(Number(got[1]!.codebleu)).toBeCloseTo(0.5537842627792564, 6);
    },
    60_000,
  );
});

describe('faun score-pairs input errors', () => {
  test('bad lines get a per-line error, never stop the run, and make the exit code 1', () => {
    const input = join(dir, 'bad.jsonl');
    const lines = [
      JSON.stringify({ hyp: 'a b', ref: 'a b' }),
      'not json',
      JSON.stringify({ hyp: 'a' }),
      JSON.stringify({ hyp: 'x', ref: 'y', lang: 'cobol' }),
      JSON.stringify({ hyp: 'x'.repeat(5 * 1024 * 1024), ref: 'y' }),
      JSON.stringify({ hyp: 'def (((:\n  ]]', ref: 'def f(x):\n    return x', lang: 'python' }),
      '[1, 2]',
      JSON.stringify({ hyp: 3, ref: 'y' }),
      JSON.stringify({ hyp: 'last', ref: 'last' }),
    ];
    writeFileSync(input, `${lines.join('\n')}\n`);
    const out = join(dir, 'bad-out.jsonl');
    const r = faun(['score-pairs', '--metric', 'all', '--input', input, '--out', out]);
    expect(r.code).toBe(1);
    const got = readJsonl(out);
    expect(got.length).toBe(lines.length);
    expect(got[0]!.em).toBe(1);
    expect(String(got[1]!.error)).toMatch(/bad\.jsonl:2: \(line\): not valid JSON/);
    expect(String(got[2]!.error)).toMatch(/bad\.jsonl:3: ref: missing/);
    expect(String(got[3]!.error)).toMatch(/bad\.jsonl:4: lang: unknown language "cobol"/);
    expect(String(got[4]!.error)).toMatch(/bad\.jsonl:5: \(line\): line is \d+ bytes, over the 5 MB limit/);
    // Code that does not parse still gets a defined CodeBLEU (tree-sitter recovers) or a per-line error.
    const broken = got[5]!;
    expect(typeof broken.codebleu === 'number' || /bad\.jsonl:6:/.test(String(broken.error))).toBe(true);
    expect(String(got[6]!.error)).toMatch(/bad\.jsonl:7: \(line\): expected a JSON object/);
    expect(String(got[7]!.error)).toMatch(/bad\.jsonl:8: hyp: expected a string/);
    expect(got[8]!.em).toBe(1);
    // The count and the first five messages on stderr.
    const failed = got.filter((g) => g.error !== undefined).length;
    expect(failed === 6 || failed === 7).toBe(true);
    expect(r.stderr).toContain(`faun: ${failed} of 9 lines failed:`);
    for (const n of [2, 3, 4, 5]) expect(r.stderr).toContain(`bad.jsonl:${n}:`);
    expect(r.stderr).toContain(`… and ${failed - 5} more`);
    expect(r.stderr).not.toContain('bad.jsonl:8:');
    const help = faun(['score-pairs', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'the exit code is 1 (0 only when every line was scored)',
    );
  }, 60_000);
});

describe('faun score', () => {
  test('QA: table, --json summary and per-item scores', () => {
    const items = [
      { id: 'q1', answer: 'the cat sat on the mat' },
      { id: 'q2', answer: 'use a lock' },
    ].map((x) => ({
      ...testIssue(x.id),
      task: 'qa',
      question_association: null,
      answer_association: null,
      ...x,
    }));
    const ds = join(dir, 'qa.jsonl');
    writeFileSync(ds, items.map((i) => JSON.stringify(i)).join('\n'));
    const preds = join(dir, 'qa-preds.jsonl');
    writeFileSync(
      preds,
      JSON.stringify({ v: 1, id: 'q1', task: 'qa', model: 'echo', output: 'the cat sat on a mat' }),
    );
    const out = join(dir, 'qa-scores.jsonl');
    const r = faun([
      'score',
      '--task',
      'qa',
      '--dataset',
      ds,
      '--predictions',
      preds,
      '--out',
      out,
      '--json',
    ]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.missing).toEqual({ count: 1, ids: ['q2'] });
    expect(summary.aggregate.bleu.mean).toBeCloseTo((1 / 12) ** 0.25 / 2, 12);
    expect(summary.aggregate.rouge1.mean).toBeCloseTo(5 / 12, 12);
    expect(summary.aggregate.bleu.low).toBeLessThanOrEqual(summary.aggregate.bleu.mean);
    expect(readJsonl(out).map((s) => s.id)).toEqual(['q1', 'q2']);
    const table = faun(['score', '--task', 'qa', '--dataset', ds, '--predictions', preds, '--out', out]);
    expect(table.stdout).toMatch(/bleu\s+0\.2686\s+\[/);
    expect(table.stdout).toContain('missing predictions (scored as empty): 1: q2');
  }, 60_000);

  test('CE through the CLI and a dataset line of the wrong task', () => {
    const gold = formatSearchReplace([
      { path: null, search: '    return 1', replace: '    return 2', line: 0 },
    ]);
    const item = testCeItem('c1', gold);
    const ds = join(dir, 'ce.jsonl');
    writeFileSync(ds, JSON.stringify(item));
    const preds = join(dir, 'ce-preds.jsonl');
    writeFileSync(preds, JSON.stringify({ v: 1, id: 'c1', task: 'ce', model: 'echo', output: gold }));
    const r = faun(['score', '--task', 'ce', '--dataset', ds, '--predictions', preds, '--json']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout);
    for (const k of ['codebleu_patch', 'apply_rate', 'codebleu_file', 'file_em'])
      expect(s.aggregate[k].mean).toBe(1);
    const wrong = faun(['score', '--task', 'qa', '--dataset', ds, '--predictions', preds]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/ce\.jsonl:1: task/);
  }, 60_000);
});

test('score-pairs: a missing --input is a usage error naming the option and the path', () => {
  const r = faun(['score-pairs', '--metric', 'bleu', '--input', 'nosuch.jsonl']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('faun: --input nosuch.jsonl: no such file');
  expect(r.stderr).not.toContain('unexpected error');
}, 60_000);
