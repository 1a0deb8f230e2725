/** The scoring pool: same bytes for any --threads, input order kept, errors carried back per job. */
import { afterAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sharedPath } from '@faun/kit';
import { cliSandbox } from '../commands/test-helpers.ts';
import { scorePair } from '../pairs.ts';
import { createScorer, inOrder, Later } from './pool.ts';

// the files here are small: run every asked-for thread on them (score-pairs would otherwise use one)
const box = cliSandbox('faun-pool-', { FAUN_PAIRS_PER_THREAD: '1' });
afterAll(box.cleanup);

describe('faun score-pairs --threads', () => {
  const dev = sharedPath('data/metrics/codebleu-dev.jsonl');
  test.skipIf(dev === null)(
    'codebleu on codebleu-dev.jsonl: --threads 1 and --threads 2 write the same bytes',
    () => {
      const outs = [1, 2].map((t) => {
        const out = join(box.dir, `dev-t${t}.jsonl`);
        const r = box.faun([
          'score-pairs',
          '--metric',
          'codebleu',
          '--threads',
          String(t),
          '--input',
          dev!,
          '--out',
          out,
        ]);
        expect(r.stderr).toContain(', 0 errors');
        expect(r.code).toBe(0);
        return readFileSync(out);
      });
      expect(outs[0]!.length).toBeGreaterThan(0);
      expect(outs[1]!.equals(outs[0]!)).toBe(true);
      // and the vectors' own values come out (parity is unchanged by the pool)
      const rows = readFileSync(dev!, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l));
      const got = outs[1]!
        .toString()
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l));
      expect(got.length).toBe(rows.length);
      let checked = 0;
      rows.forEach((w: Record<string, unknown>, i: number) => {
        if (w.seed_values) return;
        expect(Math.abs((got[i].codebleu as number) - (w.codebleu as number))).toBeLessThan(1e-6);
        checked++;
      });
      expect(checked).toBeGreaterThan(250);
    },
    120_000,
  );

  test('--threads 0 is a usage error', () => {
    const input = box.write('one.jsonl', [{ hyp: 'a b', ref: 'a b' }]);
    const r = box.faun(['score-pairs', '--metric', 'bleu', '--threads', '0', '--input', input]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--threads 0');
  });
});

describe('createScorer', () => {
  test('two workers give the in-process values, in order, and report a failing job', async () => {
    const scorer = createScorer(2);
    try {
      const pairs = Array.from({ length: 40 }, (_, i) => ({
        hyp: `return a + ${i}`.repeat((i % 3) + 1),
        ref: `return a + b${i % 5}`,
      }));
      const got = await Promise.all(pairs.map((p) => scorer.pair({ metric: 'all', ...p })));
      expect(got).toEqual(pairs.map((p) => scorePair('all', p.hyp, p.ref)));
      await expect(scorer.pair({ metric: 'codebleu', hyp: 'x', ref: 'y' })).rejects.toThrow(
        'codebleu needs a language',
      );
    } finally {
      await scorer.close();
    }
  });
});

describe('inOrder', () => {
  test('yields in input order whatever order the values settle in, with a bounded window', async () => {
    const delays = [30, 5, 20, 0, 10, 1];
    let inFlight = 0;
    let peak = 0;
    async function* source() {
      for (const [i, d] of delays.entries()) {
        if (i === 2) yield 'plain';
        inFlight++;
        peak = Math.max(peak, inFlight);
        yield new Later(
          new Promise<string>((r) =>
            setTimeout(() => {
              inFlight--;
              r(`v${i}`);
            }, d),
          ),
        );
      }
    }
    const out: string[] = [];
    for await (const v of inOrder(source(), 3)) out.push(v);
    expect(out).toEqual(['v0', 'v1', 'plain', 'v2', 'v3', 'v4', 'v5']);
    expect(peak).toBeLessThanOrEqual(3);
  });

  test('a rejected value surfaces when its turn comes', async () => {
    async function* source() {
      yield new Later(Promise.resolve(1));
      yield new Later(Promise.reject(new Error('boom')));
    }
    const out: number[] = [];
    await expect(
      (async () => {
        for await (const v of inOrder(source(), 4)) out.push(v);
      })(),
    ).rejects.toThrow('boom');
    expect(out).toEqual([1]);
  });
});

describe('whole scoreTask calls on the pool', () => {
  const base = { v: 1, repo: 'o/r', issue_number: 1, issue_title: 't', issue_body: 'b', language: 'python' };
  const qa = { task: 'qa', question_association: null, answer_association: 'MEMBER' };
  const items = [
    { ...base, ...qa, id: 'q1', answer: 'because the cache is cold' },
    { ...base, ...qa, id: 'q2', answer: 'run it twice' },
  ];
  const predictions = [
    { v: 1, id: 'q1', task: 'qa', model: 'm:x', output: 'the cache is cold' },
    { v: 1, id: 'q2', task: 'qa', model: 'm:x', output: 'run it once' },
  ];

  test('a worker-only pool (no lane on this thread) gives what scoreTask gives in process', async () => {
    const { scoreTask } = await import('../score/task.ts');
    const direct = await (scoreTask as (...a: unknown[]) => Promise<unknown>)('qa', items, predictions, {
      bootstrap: 50,
    });
    const scorer = createScorer(1, { inline: false, unref: true });
    try {
      const pooled = await scorer.task({ task: 'qa', items, predictions, opts: { bootstrap: 50 } });
      expect(pooled.items.length).toBe(2);
      expect(pooled).toEqual(direct as typeof pooled);
    } finally {
      await scorer.close();
    }
  });

  test("a failing call rejects with the error's message and name; terminate fails the waiting ones", async () => {
    const scorer = createScorer(2, { inline: false, unref: true });
    const bad = scorer.task({ task: 'qa', items: [{ task: 'qa' }], predictions: [], opts: {} });
    const err = (await bad.catch((e: Error) => e)) as Error;
    expect(err).toBeInstanceOf(Error);
    expect(err.name).not.toBe('');
    expect(err.message.length).toBeGreaterThan(0);
    const waiting = scorer.task({ task: 'qa', items, predictions, opts: { bootstrap: 50 } });
    scorer.terminate(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
  });
});
