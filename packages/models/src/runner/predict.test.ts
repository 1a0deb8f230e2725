import { afterAll, expect, test } from 'bun:test';
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunRecord } from '@faun/kit';
import type { FlItem, QaItem } from '@faun/schema';
import { testFlItem } from '@faun/schema/testing';
import { createMockProvider } from '../../testing/doubles.ts';
import { ProviderError } from '../errors.ts';
import { intendedOutput } from '../parse/inspect.ts';
import { ablateItem, buildPrompt, promptSha256 } from '../prompts/build.ts';
import { createBaselineProvider } from '../providers/baseline.ts';
import type { GenerateRequest } from '../types.ts';
import { withCache } from '../wrap/cache.ts';
import { type PredictOptions, runPredictions } from './predict.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-runner-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const items: FlItem[] = Array.from({ length: 5 }, (_, i) =>
  testFlItem(i, {
    issue_title: `title ${i}`,
    issue_body: `body ${i}`,
    tree: ['a.py', 'b.py'],
    gold_path: 'a.py',
  }),
);

const lines = (p: string) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

function opts(
  out: string,
  answer: (r: GenerateRequest) => string,
  extra: Partial<PredictOptions> = {},
): PredictOptions {
  return {
    task: 'fl',
    items,
    model: 'mock:m',
    provider: createMockProvider('mock:m', answer),
    out,
    concurrency: 2,
    ablate: [],
    params: { temperature: 0 },
    promptBudget: 10_000,
    ...extra,
  };
}

test('runPredictions: records prompt version, ablation, input length and per-item errors without stopping', async () => {
  const out = join(dir, 'a.jsonl');
  const seen: GenerateRequest[] = [];
  const s = await runPredictions(
    opts(
      out,
      (r) => {
        seen.push(r);
        if (r.item?.id === 'o/r#3') throw new ProviderError('nope', { status: 400 });
        return 'a.py';
      },
      { ablate: ['issue_title'] },
    ),
  );
  expect(s).toMatchObject({ total: 5, generated: 4, errors: 1, resumed: 0, malformed: 0 });
  const preds = lines(out);
  expect(preds.map((p) => p.id)).toEqual(items.map((i) => i.id));
  expect(preds[0]).toMatchObject({
    prompt_version: 'fl-v1',
    ablate: ['issue_title'],
    truncated: false,
    error: null,
  });
  expect(preds[0].input_tokens).toBeGreaterThan(10);
  expect(preds[3]).toMatchObject({ output: '', error: 'HTTP 400: nope' });
  // The ablated title reaches neither the prompt nor the item handed to the provider.
  expect(seen.every((r) => r.item?.issue_title === '' && !r.messages[1]!.content.includes('title '))).toBe(
    true,
  );
  expect(seen.every((r) => r.messages[1]!.content.includes('body '))).toBe(true);
  // the prompt as sent can be rebuilt from the item, the ablation and the budget, and checked
  const rebuilt = buildPrompt(ablateItem(items[0]!, ['issue_title']), preds[0].prompt_budget);
  expect(preds[0].prompt_budget).toBe(10_000);
  expect(preds[0].prompt_sha256).toBe(promptSha256(rebuilt.messages));
  expect(promptSha256(seen.find((r) => r.item?.id === 'o/r#0')!.messages)).toBe(preds[0].prompt_sha256);
  // a local provider (no cache scope) is not timed: its files stay byte-identical from run to run
  expect(preds[0]).toMatchObject({ latency_ms: null, cache_hit: null });
});

test('runPredictions: a remote provider records latency and cache hits per prediction', async () => {
  const out = join(dir, 'timed.jsonl');
  const cacheDir = join(dir, 'cache');
  const remote = { ...createMockProvider('mock:m', () => 'a.py'), cacheScope: 'http://x' };
  const slow = {
    ...remote,
    generate: async (r: GenerateRequest, o: { signal: AbortSignal }) => {
      await Bun.sleep(20);
      return remote.generate(r, o);
    },
  };
  await runPredictions(opts(out, () => '', { provider: withCache(slow, { dir: cacheDir }) }));
  const first = lines(out);
  expect(first.every((p) => p.latency_ms >= 15 && p.cache_hit === false)).toBe(true);
  const again = join(dir, 'timed-again.jsonl');
  await runPredictions(opts(again, () => '', { provider: withCache(slow, { dir: cacheDir }) }));
  expect(lines(again).every((p) => p.cache_hit === true && p.latency_ms < 15)).toBe(true);
});

test('runPredictions: resumes: skips finished items, retries errors, repairs a torn last line', async () => {
  const out = join(dir, 'a.jsonl');
  appendFileSync(out, '{"v":1,"id":"o/r#4","tas');
  const asked: string[] = [];
  const s = await runPredictions(
    opts(
      out,
      (r) => {
        asked.push(r.item!.id);
        return 'b.py';
      },
      { ablate: ['issue_title'] },
    ),
  );
  expect(asked).toEqual(['o/r#3']);
  expect(s).toMatchObject({ resumed: 4, generated: 1, errors: 0 });
  const preds = lines(out);
  expect(preds.map((p) => p.output)).toEqual(['a.py', 'a.py', 'a.py', 'b.py', 'a.py']);
});

test('runPredictions: refuses to mix configurations in one output file', async () => {
  const out = join(dir, 'a.jsonl');
  await expect(runPredictions(opts(out, () => 'a.py'))).rejects.toThrow('another configuration');
});

test('runPredictions: --limit runs the first N; an abort stops taking new items and keeps what finished', async () => {
  const out = join(dir, 'b.jsonl');
  const s = await runPredictions({ ...opts(out, () => 'a.py'), limit: 2 });
  expect(s.total).toBe(2);
  expect(lines(out).map((p) => p.id)).toEqual(['o/r#0', 'o/r#1']);

  const out2 = join(dir, 'c.jsonl');
  const ctl = new AbortController();
  const record = await RunRecord.start({
    dir: join(dir, 'run'),
    runId: 'r',
    command: 'predict',
    argv: [],
    options: {},
  });
  const s2 = await runPredictions({
    ...opts(out2, (r) => {
      if (r.item?.id === 'o/r#1') ctl.abort();
      return 'zzz';
    }),
    concurrency: 1,
    signal: ctl.signal,
    record,
  });
  expect(s2).toMatchObject({ cancelled: true, generated: 2, notRun: 3, malformed: 0 });
  expect(lines(out2).map((p) => p.id)).toEqual(['o/r#0', 'o/r#1']);
  await record.flush();
  const samples = lines(record.samplesPath);
  expect(samples.map((x) => x.outcome)).toEqual(['pass', 'pass']);
  expect(samples[0].data).toMatchObject({
    path_strict: 'zzz',
    in_tree: false,
    format_problem: 'path is not in the tree',
  });
});

test('runPredictions: QA with the title baseline: the output is the issue title, labelled by its model id', async () => {
  const out = join(dir, 'qa.jsonl');
  const qa: QaItem[] = [0, 1].map((i) => ({
    v: 1,
    id: `o/r#q${i}`,
    repo: 'o/r',
    language: 'python',
    issue_number: i,
    issue_title: `How do I configure ${i}?`,
    issue_body: 'Details.',
    task: 'qa',
    question_association: 'NONE',
    context: [],
    answer: 'Set X.',
    answer_association: 'MEMBER',
  }));
  const s = await runPredictions({
    ...opts(out, () => ''),
    task: 'qa',
    items: qa,
    model: 'baseline:title',
    provider: createBaselineProvider('title'),
  });
  expect(s).toMatchObject({ generated: 2, malformed: 0 });
  expect(lines(out).map((p) => [p.model, p.prompt_version, p.output])).toEqual([
    ['baseline:title', 'qa-v1', 'How do I configure 0?'],
    ['baseline:title', 'qa-v1', 'How do I configure 1?'],
  ]);
});

test('runPredictions: only the intended answer escapes the malformed count: bm25:K ranked lists, not any model', async () => {
  const ranked = await runPredictions({
    ...opts(join(dir, 'k.jsonl'), () => 'b.py\na.py'),
    model: 'bm25:2',
  });
  expect(ranked).toMatchObject({ generated: 5, malformed: 0, emptyEdits: 0 });
  const other = await runPredictions(opts(join(dir, 'k2.jsonl'), () => 'b.py\na.py'));
  expect(other).toMatchObject({ generated: 5, malformed: 5 });
  expect(intendedOutput('baseline:no-edit', items[0]!, '')).toBeNull(); // an FL item: not its task
  expect(intendedOutput('bm25:2', items[0]!, 'b.py\nnot/in/tree.py')).toBeNull();
});

test('runPredictions: a fatal answer (HTTP 401) stops the run: nothing new starts, nothing is written for it', async () => {
  const out = join(dir, 'fatal.jsonl');
  const asked: string[] = [];
  const s = await runPredictions({
    ...opts(out, (r) => {
      asked.push(r.item!.id);
      if (r.item?.id === 'o/r#1')
        throw new ProviderError('bad key', { status: 401, fatal: true, hint: 'check K' });
      return 'a.py';
    }),
    concurrency: 1,
  });
  expect(asked).toEqual(['o/r#0', 'o/r#1']);
  expect(s.fatal?.message).toBe('bad key');
  expect(s).toMatchObject({ generated: 1, errors: 0, notRun: 4, cancelled: false });
  expect(lines(out).map((p) => [p.id, p.error])).toEqual([['o/r#0', null]]);
});

test('runPredictions: errors are split into transient (a re-run may help) and permanent', async () => {
  const s = await runPredictions(
    opts(join(dir, 'kinds.jsonl'), (r) => {
      if (r.item?.id === 'o/r#1') throw new ProviderError('busy', { status: 503, retryable: true });
      if (r.item?.id === 'o/r#3') throw new ProviderError('too long', { status: 400 });
      return 'a.py';
    }),
  );
  expect(s).toMatchObject({
    errors: 2,
    transientErrors: 1,
    firstPermanentError: 'o/r#3: HTTP 400: too long',
  });
  expect(s.fatal).toBeNull();
});
