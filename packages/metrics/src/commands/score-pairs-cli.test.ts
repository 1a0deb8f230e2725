/**
 * `faun score-pairs` as a user runs it: resume after Ctrl+C (byte-identical to an uninterrupted run),
 * refused inputs and outputs, progress with count/total, rate and ETA, --quiet, and SIGTERM inside a
 * long line.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';
import { PAIRS_PER_THREAD, PAIRS_PER_THREAD_NATIVE, usefulThreads } from './score-pairs.ts';
import { cliSandbox } from './test-helpers.ts';

const MAIN = join(REPO_ROOT, 'apps/cli/src/main.ts');
const box = cliSandbox('faun-score-pairs-');
afterAll(box.cleanup);
const { dir, faun, write } = box;

/** `faun score-pairs` with one thread as a child process (piped output), to interrupt it. */
function spawnScorePairs(metric: string, input: string, out: string) {
  const args = ['score-pairs', '--metric', metric, '--input', input, '--out', out];
  return Bun.spawn(['bun', MAIN, ...args, '--log-dir', join(dir, 'logs'), '--threads', '1'], {
    cwd: dir,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { ...process.env, CI: '1' },
  });
}

const WORDS = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'dog', 'ran', 'fast', 'slow', 'red', 'blue'];
/** `n` generated pairs (deterministic). */
function pairs(n: number): string {
  let seed = 7;
  const rand = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const sentence = () =>
    Array.from({ length: 3 + Math.floor(rand() * 12) }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(
      ' ',
    );
  let s = '';
  for (let i = 0; i < n; i++) s += `${JSON.stringify({ hyp: sentence(), ref: sentence() })}\n`;
  return s;
}

test('Ctrl+C at a random line, then the printed resume command, gives a file byte-identical to an uninterrupted run', async () => {
  const input = join(dir, 'big.jsonl');
  writeFileSync(input, pairs(50_000));
  const full = faun(['score-pairs', '--metric', 'bleu', '--input', input, '--out', join(dir, 'full.jsonl')]);
  expect(full.code).toBe(0);
  const out = join(dir, 'resumed.jsonl');
  const p = spawnScorePairs('bleu', input, out);
  // interrupt once the output holds a random number of lines (between 2k and 40k)
  const at = 2_000 + Math.floor(Math.random() * 38_000);
  const until = Date.now() + 25_000;
  for (;;) {
    let lines = 0;
    try {
      const text = readFileSync(out, 'utf8');
      for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
    } catch {}
    if (lines >= at || Date.now() > until) break;
    await Bun.sleep(20);
  }
  p.kill('SIGINT');
  const code = await p.exited;
  const stdout = await new Response(p.stdout).text();
  const stderr = await new Response(p.stderr).text();
  expect(code).toBe(130);
  const kept = readFileSync(out, 'utf8').split('\n').length - 1;
  expect(kept).toBeGreaterThan(0);
  expect(kept).toBeLessThan(50_000);
  const m = /resume with: (.+)/.exec(stdout) ?? /resume with: (.+)/.exec(stderr);
  expect(m).not.toBeNull();
  expect(m![1]).toContain(`--out ${out}`);
  const again = Bun.spawnSync(['sh', '-c', m![1]!], { cwd: dir, env: { ...process.env, CI: '1' } });
  expect(again.exitCode).toBe(0);
  expect(again.stdout.toString()).toContain(`(${kept} resumed)`);
  expect(readFileSync(out).equals(readFileSync(join(dir, 'full.jsonl')))).toBe(true);
  // running it once more changes nothing
  expect(faun(['score-pairs', '--metric', 'bleu', '--input', input, '--out', out]).code).toBe(0);
  expect(readFileSync(out).equals(readFileSync(join(dir, 'full.jsonl')))).toBe(true);
}, 60_000);

test('a torn last line is cut off on resume; an output of another input is refused', () => {
  const input = write('small.jsonl', [
    { hyp: 'a b c', ref: 'a b c' },
    { hyp: 'x y', ref: 'x z' },
    { hyp: 'p q', ref: 'p q' },
  ]);
  const full = join(dir, 'small-full.jsonl');
  expect(faun(['score-pairs', '--metric', 'bleu', '--input', input, '--out', full]).code).toBe(0);
  const lines = readFileSync(full, 'utf8').split('\n');
  const torn = join(dir, 'small-torn.jsonl');
  writeFileSync(torn, `${lines[0]}\n${lines[1]!.slice(0, 10)}`);
  expect(faun(['score-pairs', '--metric', 'bleu', '--input', input, '--out', torn]).code).toBe(0);
  expect(readFileSync(torn, 'utf8')).toBe(readFileSync(full, 'utf8'));
  const other = write('other.jsonl', [
    { hyp: 'zzz', ref: 'a b c' },
    { hyp: 'q', ref: 'q' },
    { hyp: 'r', ref: 'r' },
  ]);
  const r = faun(['score-pairs', '--metric', 'bleu', '--input', other, '--out', torn]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`${torn}:1: hyp/ref differ from ${other}:1`);
  expect(r.stderr).not.toContain('    at ');
});

test('an empty input is an error unless --allow-empty', () => {
  const empty = join(dir, 'empty.jsonl');
  writeFileSync(empty, '\n\n');
  const r = faun(['score-pairs', '--metric', 'bleu', '--input', empty, '--out', join(dir, 'e.jsonl')]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`--input ${empty}: no pairs`);
  expect(r.stderr).toContain('--allow-empty');
  const ok = faun([
    'score-pairs',
    '--metric',
    'bleu',
    '--input',
    empty,
    '--out',
    join(dir, 'e.jsonl'),
    '--allow-empty',
  ]);
  expect(ok.code).toBe(0);
});

test('--out equal to the input (or a folder) is refused and the input stays intact', () => {
  const input = write('same.jsonl', [{ hyp: 'a', ref: 'a' }]);
  const before = readFileSync(input, 'utf8');
  const r = faun(['score-pairs', '--metric', 'bleu', '--input', input, '--out', './same.jsonl']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('is the input file');
  expect(readFileSync(input, 'utf8')).toBe(before);
  mkdirSync(join(dir, 'folder'), { recursive: true });
  const d = faun(['score-pairs', '--metric', 'bleu', '--input', input, '--out', join(dir, 'folder')]);
  expect(d.code).toBe(2);
  expect(d.stderr).toContain('is a directory');
  expect(d.stderr).not.toContain('unexpected error');
});

test('--limit must be a whole number ≥ 1', () => {
  const input = write('lim.jsonl', [{ hyp: 'a', ref: 'a' }]);
  for (const bad of ['-3', '0', '1.5']) {
    const r = faun(['score-pairs', '--metric', 'bleu', '--input', input, '--limit', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--limit ${bad}: expected a whole number ≥ 1`);
  }
});

test('--quiet still prints the result; progress lines show count/total, rate and ETA', () => {
  const input = join(dir, 'mid.jsonl');
  writeFileSync(input, pairs(3_000));
  const q = faun([
    'score-pairs',
    '--metric',
    'bleu',
    '--input',
    input,
    '--out',
    join(dir, 'q.jsonl'),
    '--quiet',
  ]);
  expect(q.code).toBe(0);
  expect(q.stdout).toContain('scored 3000/3000 lines');
  expect(q.stderr).toBe('');
  const q2 = faun(['score-pairs', '--metric', 'bleu', '--input', input, '--quiet', '--limit', '2']);
  // without --out the scored lines own stdout; the result goes to stderr
  expect(q2.stdout.trim().split('\n').length).toBe(2);
  expect(q2.stderr.trim().split('\n')).toEqual([
    'scored 2/2 lines',
    expect.stringMatching(/^ {2}nltk_m1 +mean \d\.\d{6}$/),
  ]);
  const v = faun(['score-pairs', '--metric', 'bleu', '--input', input, '--out', join(dir, 'v.jsonl')]);
  const last = v.stderr.trim().split('\n').at(-1)!;
  expect(last).toMatch(/^score-pairs: 3000\/3000 \(100\.0%\) [\d.]+s [\d.]+\/s /);
  expect(v.stderr).not.toContain('/0 ');
});

test('SIGTERM stops a run at once, even inside one long line, keeping the finished lines', async () => {
  const short = JSON.stringify({
    hyp: 'def f(x):\n    return x',
    ref: 'def f(x):\n    return x + 1',
    lang: 'python',
  });
  const body = (op: string) =>
    Array.from({ length: 6000 }, (_, i) => `def f${i}(x):\n    y = x ${op} ${i}\n    return y * x`).join(
      '\n',
    );
  const long = JSON.stringify({ hyp: body('+'), ref: body('-'), lang: 'python' });
  const input = join(dir, 'long.jsonl');
  writeFileSync(input, `${short}\n${long}\n`);
  const out = join(dir, 'long-out.jsonl');
  const p = spawnScorePairs('codebleu', input, out);
  // the first (short) line is done when it is on disk: the long line is being scored now
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    try {
      if (readFileSync(out, 'utf8').endsWith('\n')) break;
    } catch {}
    await Bun.sleep(20);
  }
  await Bun.sleep(300);
  const sent = performance.now();
  p.kill('SIGTERM');
  await p.exited;
  const took = performance.now() - sent;
  expect(p.signalCode).toBe('SIGTERM');
  expect(took).toBeLessThan(1000);
  expect(readFileSync(out, 'utf8').split('\n').length - 1).toBe(1);
}, 60_000);

test('a small input runs on fewer threads than asked: one more per PAIRS_PER_THREAD pairs', () => {
  expect(usefulThreads(2, 0, PAIRS_PER_THREAD)).toBe(1);
  expect(usefulThreads(2, PAIRS_PER_THREAD * 2 - 1, PAIRS_PER_THREAD)).toBe(1);
  expect(usefulThreads(2, PAIRS_PER_THREAD * 2, PAIRS_PER_THREAD)).toBe(2);
  expect(usefulThreads(4, PAIRS_PER_THREAD * 3, PAIRS_PER_THREAD)).toBe(3);
  expect(usefulThreads(2, 50_000, PAIRS_PER_THREAD)).toBe(2);
  expect(usefulThreads(1, 50_000, PAIRS_PER_THREAD)).toBe(1);
  expect(usefulThreads(2, 10, 1)).toBe(2); // FAUN_PAIRS_PER_THREAD=1
  expect(usefulThreads(2, 500, PAIRS_PER_THREAD_NATIVE)).toBe(1); // a per-language file, native parser
  expect(usefulThreads(2, 1000, PAIRS_PER_THREAD_NATIVE)).toBe(2);
  expect(usefulThreads(2, 500, PAIRS_PER_THREAD)).toBe(1);
  expect(usefulThreads(2, 10, Number.NaN)).toBe(1); // a bad override falls back to the default
});
