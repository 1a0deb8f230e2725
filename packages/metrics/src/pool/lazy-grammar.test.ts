/**
 * The scoring pool loads only the native parsers: the WebAssembly runtime and grammars come in on demand,
 * for a text the native parser declines (deeper than it reads) or the TSX grammar, with the same scores.
 * Runs in a fresh process, since which grammars a process has loaded is process state.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { initSyntax, MAX_READ_DEPTH } from '@faun/syntax';
import { codebleu, initCodeBleu } from '../codebleu/index.ts';

const hasCc = Bun.which(process.env.FAUN_CC || 'cc') !== null;
const DEEP = `x = ${'('.repeat(MAX_READ_DEPTH)}1${')'.repeat(MAX_READ_DEPTH)}\ny = 2\n`;
const PLAIN = ['def f(a):\n    return a + 1\n', 'def f(b):\n    return b + 2\n'] as const;

const SCRIPT = `
import { isLoaded } from '@faun/syntax';
import { runJob } from './jobs.ts';
const [deep, a, b] = JSON.parse(process.argv[1]);
const out = {};
out.plain = await runJob({ kind: 'pair', metric: 'codebleu', hyp: a, ref: b, lang: 'python' });
out.wasmAfterPlain = isLoaded('python');
out.deep = await runJob({ kind: 'pair', metric: 'codebleu', hyp: a, ref: deep, lang: 'python' });
out.wasmAfterDeep = isLoaded('python');
console.log(JSON.stringify(out));
`;

beforeAll(async () => {
  // build the native libraries (once per machine), then the reference values through the eager path
  await initSyntax(['python'], { native: 'wait' });
  await initCodeBleu(['python']);
}, 600_000);

describe('lazy WebAssembly grammars in the scoring pool', () => {
  test.skipIf(!hasCc)(
    'native texts load no WebAssembly; a declined text loads it and scores the same',
    () => {
      const p = Bun.spawnSync(['bun', '-e', SCRIPT, JSON.stringify([DEEP, ...PLAIN])], {
        cwd: import.meta.dir,
        stderr: 'pipe',
      });
      expect(p.stderr.toString()).toBe('');
      const out = JSON.parse(p.stdout.toString());
      expect(out.wasmAfterPlain).toBe(false);
      expect(out.wasmAfterDeep).toBe(true);
      const plain = codebleu(PLAIN[1], PLAIN[0], 'python');
      const deep = codebleu(DEEP, PLAIN[0], 'python');
      expect(out.plain).toEqual({ ...plain });
      expect(out.deep).toEqual({ ...deep });
    },
    120_000,
  );
});
