/**
 * `faun predict` end to end (child process): failures a re-run cannot fix stop the run or are reported
 * as permanent; only transient ones get the "re-run to retry" hint.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';
import type { CeItem } from '@faun/schema';
import { type FlItem, writeJsonlAtomic } from '@faun/schema';
import { testFlItem } from '@faun/schema/testing';
import { runPredict } from '../testing/cli.ts';
import { type FakeReply, type FakeServer, startFakeOpenAi } from '../testing/fake-openai.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-predict-cli-'));
const gold = (i: number) => `src/pkg/module_${i}.py`;
const fl: FlItem[] = Array.from({ length: 6 }, (_, i) =>
  testFlItem(i, {
    issue_title: `[[item-${i}]] crash in module ${i}`,
    issue_body: 'It breaks.',
    tree: Array.from({ length: 6 }, (_, k) => gold(k)),
    gold_path: gold(i),
  }),
);

const readPreds = (p: string) =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; model: string; output: string; error: string | null });

let server: FakeServer;
let script: (key: string, attempt: number) => FakeReply = () => ({ kind: 'ok', text: 'x' });
const predict = (args: string[], env?: Record<string, string>) =>
  runPredict([...args, '--log-dir', join(dir, 'logs')], { cwd: dir, cacheDir: join(dir, 'cache'), env });
/** `faun predict --task fl` over `dataset` (in the test folder) with `model`, writing `out`. */
const predictFl = (model: string, out: string, more: string[] = [], dataset = 'fl.jsonl') =>
  predict(['--task', 'fl', '--dataset', join(dir, dataset), '-m', model, '-o', out, ...more]);

beforeAll(async () => {
  await writeJsonlAtomic(join(dir, 'fl.jsonl'), fl);
  server = startFakeOpenAi((k, a) => script(k, a));
});
afterAll(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('faun predict: errors a re-run cannot fix', () => {
  test('a baseline on a task it does not answer is a usage error before any item runs', async () => {
    const out = join(dir, 'bm25-ce.jsonl');
    const r = await predict(['--task', 'ce', '--dataset', join(dir, 'fl.jsonl'), '-m', 'bm25', '-o', out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      '--model bm25 is a fault-localization (FL) baseline; it does not answer --task ce',
    );
    expect(r.err).toContain('fl: bm25, bm25:K · qa: baseline:title · ce: baseline:no-edit');
    expect(r.err).not.toContain('re-run');
    expect(existsSync(out)).toBe(false);
  }, 30_000);

  test('HTTP 401 stops the run at the first answer, names the key/URL/model, keeps finished items', async () => {
    await server.stop();
    server = startFakeOpenAi((k, a) => script(k, a));
    script = (key) => (key === 'item-2' ? { kind: 'error', status: 401 } : { kind: 'ok', text: gold(0) });
    const out = join(dir, 'auth.jsonl');
    const args = ['--task', 'fl', '--dataset', join(dir, 'fl.jsonl'), '-m', 'openai:fake-model'];
    const common = [...args, '--base-url', server.url, '-o', out, '-j', '1', '--no-cache'];
    const r = await predict([...common, '--max-retries', '3']);
    expect(r.code).toBe(1);
    expect(server.log.map((q) => q.key)).toEqual(['item-0', 'item-1', 'item-2']); // no retry, nothing after
    expect(r.err).toContain('run stopped: HTTP 401');
    expect(r.err).toContain('check OPENAI_API_KEY');
    expect(r.err).toContain(`--base-url (now ${server.url}/v1)`);
    expect(r.err).toContain("the model name 'fake-model'");
    expect(r.err).toContain(`2 finished items are kept in ${out} (4 not run)`);
    expect(`${r.out}${r.err}`).not.toContain('re-run to retry');
    // The file holds only the finished items, in order, without an error line for the stop.
    expect(readPreds(out).map((p) => [p.id, p.error])).toEqual([
      ['o/r#0', null],
      ['o/r#1', null],
    ]);
    // After the fix, the same command resumes with the items not run.
    script = () => ({ kind: 'ok', text: gold(0) });
    const r2 = await predict(common);
    expect(r2.code).toBe(0);
    expect(server.log.slice(3).map((q) => q.key)).toEqual(['item-2', 'item-3', 'item-4', 'item-5']);
    expect(readPreds(out).map((p) => p.id)).toEqual(fl.map((i) => i.id));
  }, 30_000);

  test('HTTP 404 (unknown model) stops the run too', async () => {
    script = () => ({ kind: 'error', status: 404 });
    const out = join(dir, 'nf.jsonl');
    const r = await predictFl('vllm:no-such-model', out, ['--base-url', server.url, '-j', '1', '--no-cache']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('HTTP 404');
    expect(r.err).toContain('check VLLM_API_KEY (the key), --base-url (now');
    expect(r.err).toContain("the model name 'no-such-model'");
    expect(readPreds(out)).toEqual([]);
  }, 30_000);

  test('replay with missing ids: recorded per item, counted at the end as not fixable by a re-run', async () => {
    const src = join(dir, 'src.jsonl');
    const r0 = await predictFl('bm25', src);
    expect(r0.code).toBe(0);
    const kept = readFileSync(src, 'utf8').split('\n').filter(Boolean).slice(0, 4);
    await Bun.write(src, `${kept.join('\n')}\n`);
    const out = join(dir, 'replay.jsonl');
    const r = await predictFl(`replay:${src}`, out);
    expect(r.code).toBe(1);
    expect(r.out).toContain("2 items failed in a way a re-run cannot fix (recorded with 'error' in");
    expect(r.out).toContain("e.g. o/r#4: replay: no prediction for item 'o/r#4'");
    expect(r.out).not.toContain('re-run to retry');
    expect(readPreds(out).map((p) => p.error === null)).toEqual([true, true, true, true, false, false]);
    // Recorded under the replayed predictions' model name (bm25 here), not the file's path.
    expect(new Set(readPreds(out).map((p) => p.model))).toEqual(new Set(['bm25']));
  }, 30_000);

  test('transient failures (HTTP 500 without retries) get the re-run hint', async () => {
    script = (key) => (key === 'item-1' ? { kind: 'error', status: 500 } : { kind: 'ok', text: gold(1) });
    const out = join(dir, 't.jsonl');
    const r = await predictFl('openai:fake-model', out, [
      '--base-url',
      server.url,
      '--max-retries',
      '0',
      '--no-cache',
    ]);
    expect(r.code).toBe(1);
    expect(r.out).toContain('1 items failed transiently');
    // Run as `bun apps/cli/src/main.ts` outside the workspace, the command to type again says so.
    expect(r.out).toContain(
      `re-run to retry them: bun ${join(REPO_ROOT, 'apps/cli/src/main.ts')} predict --task fl`,
    );
    expect(r.out).not.toContain('cannot fix');
  }, 30_000);
});

describe('faun predict --repo-dir', () => {
  test('bm25 indexes checkouts given as owner/repo=PATH (repeatable); a bare DIR is refused', async () => {
    const item: FlItem = {
      ...fl[0]!,
      id: 'o/r#c',
      issue_title: 'frobnicate fails',
      tree: ['src/a.py', 'src/b.py'],
      gold_path: 'src/b.py',
    };
    await writeJsonlAtomic(join(dir, 'c.jsonl'), [item]);
    const checkout = join(dir, 'checkouts/o/r');
    mkdirSync(join(checkout, 'src'), { recursive: true });
    await Bun.write(join(checkout, 'src/b.py'), 'def frobnicate():\n    pass\n');
    mkdirSync(join(dir, 'other'));
    const answer = async (out: string, extra: string[]) => {
      const r = await predictFl('bm25', out, extra, 'c.jsonl');
      return { ...r, output: r.code === 0 ? readPreds(out)[0]!.output : null };
    };
    expect((await answer(join(dir, 'rd0.jsonl'), [])).output).toBe('src/a.py');
    const pairs = ['--repo-dir', `o/r=${checkout}`, '--repo-dir', `x/y=${join(dir, 'other')}`];
    expect((await answer(join(dir, 'rd1.jsonl'), pairs)).output).toBe('src/b.py');
    // A bare directory is not owner/repo=PATH: a usage error, as in every other command.
    const bare = await answer(join(dir, 'rd2.jsonl'), ['--repo-dir', join(dir, 'checkouts')]);
    expect(bare.code).toBe(2);
    expect(bare.err).toContain('expected owner/repo=PATH');
  }, 30_000);
});

test('predict --help documents bm25:K and what it means for the FL metrics', async () => {
  const r = await runPredict(['--help'], { cwd: dir, cacheDir: join(dir, 'cache') });
  expect(r.code).toBe(0);
  const help = r.out.replace(/\s+/g, ' ');
  expect(help).toContain('bm25:K (FL: a ranked list of K paths, one per line');
  expect(help).toContain('strict em expects a single path, so it scores 0 for K > 1');
  expect(help).toContain('top3/top5/mrr use the ranking');
  expect(help).toContain('--model bm25:5');
}, 30_000);

test('a replay records the replayed model name; the file path stays in the run record header', async () => {
  const src = join(dir, 'gpt-run.jsonl');
  const pred = (i: number) => ({
    ...{ v: 1, id: `o/r#${i}`, task: 'fl', model: 'openai:gpt-4o', output: gold(i), prompt_version: 'fl-v1' },
    ...{ ablate: [], input_tokens: 10, truncated: false, usage: null, cost_usd: null, error: null },
  });
  await writeJsonlAtomic(
    src,
    fl.map((_, i) => pred(i)),
  );
  const logs = join(dir, 'replay-logs');
  const out = join(dir, 'replayed.jsonl');
  const r = await runPredict(
    ['--task', 'fl', '--dataset', join(dir, 'fl.jsonl'), '-m', `replay:${src}`, '-o', out, '--log-dir', logs],
    { cwd: dir, cacheDir: join(dir, 'cache') },
  );
  expect(r.code).toBe(0);
  const text = readFileSync(out, 'utf8');
  expect(text).not.toContain(dir);
  expect(readPreds(out).map((p) => [p.model, p.output])).toEqual(
    fl.map((it) => ['openai:gpt-4o', it.gold_path]),
  );
  const [run] = readdirSync(logs);
  expect(run).toContain('predict-fl-openai_gpt-4o');
  expect(readFileSync(join(logs, run!, 'samples.jsonl'), 'utf8')).not.toContain(dir);
  expect(readFileSync(join(logs, run!, 'summary.json'), 'utf8')).not.toContain(src);
  expect(readFileSync(join(logs, run!, 'header.json'), 'utf8')).toContain(src);
}, 30_000);

test('baseline:no-edit: an empty edit is its answer, reported as such and not as malformed', async () => {
  const ce: CeItem[] = [0, 1, 2].map((i) => ({
    ...{ v: 1, id: `o/r#e${i}`, repo: 'o/r', language: 'python', issue_number: i, issue_title: 't' },
    ...{ issue_body: 'b', task: 'ce', base_commit: null, pr_number: null, pr_title: 'p', pr_body: '' },
    path: 'a.py',
    file_before: 'x = 1\n',
    file_after: 'x = 2\n',
    gold_patch: 'a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n',
  }));
  await writeJsonlAtomic(join(dir, 'ce.jsonl'), ce);
  const logs = join(dir, 'noedit-logs');
  const r = await runPredict(
    [
      '--task',
      'ce',
      '--dataset',
      join(dir, 'ce.jsonl'),
      '-m',
      'baseline:no-edit',
      '-o',
      join(dir, 'ne.jsonl'),
    ],
    { cwd: dir, cacheDir: join(dir, 'cache'), env: { FAUN_LOG_DIR: logs } },
  );
  expect(r.code).toBe(0);
  expect(r.out).toContain('3 generated, 0 resumed, 0 errors, 0 malformed, 3 empty edits');
  const [run] = readdirSync(logs);
  const samples = readFileSync(join(logs, run!, 'samples.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  expect(samples.map((x) => [x.data.well_formed, x.data.format_problem, x.data.intended])).toEqual(
    Array(3).fill([true, null, 'empty edit']),
  );
}, 30_000);

test('from the workspace root the resume command is `bun run faun …`', async () => {
  script = (key) => (key === 'item-0' ? { kind: 'error', status: 503 } : { kind: 'ok', text: gold(0) });
  const r = await runPredict(
    [
      ...[
        '--task',
        'fl',
        '--dataset',
        join(dir, 'fl.jsonl'),
        '-m',
        'openai:fake-model',
        '--base-url',
        server.url,
      ],
      ...['-o', join(dir, 'root.jsonl'), '--max-retries', '0', '--no-cache', '--log-dir', join(dir, 'logs')],
    ],
    { cwd: REPO_ROOT, cacheDir: join(dir, 'cache') },
  );
  expect(r.code).toBe(1);
  expect(r.out).toContain('re-run to retry them: bun run faun predict --task fl');
}, 30_000);
