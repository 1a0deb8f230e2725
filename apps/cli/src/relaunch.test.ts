/**
 * The relaunch of a scoring run with runtime settings read at start-up: which runs relaunch, and that the
 * relaunched process gets the settings, the signals (each once) and hands back its exit status.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PARENT_VAR, relaunchEnv, TUNED_ENV } from './relaunch.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-relaunch-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

test('score-pairs relaunches with the settings missing from the environment; other verbs and set ones do not', () => {
  expect(Object.keys(TUNED_ENV)).toContain('MIMALLOC_PURGE_DELAY');
  const env = relaunchEnv(['score-pairs', '--metric', 'codebleu'], { PATH: '/bin', HOME: undefined }, 42);
  expect(env).toEqual({ PATH: '/bin', MIMALLOC_PURGE_DELAY: '-1', [PARENT_VAR]: '42' });
  expect(relaunchEnv(['--quiet', 'score-pairs'], {}, 7)).toEqual({
    MIMALLOC_PURGE_DELAY: '-1',
    [PARENT_VAR]: '7',
  });
  expect(relaunchEnv(['score', '--task', 'qa'], {})).toBeNull();
  expect(relaunchEnv(['--version'], {})).toBeNull();
  // a value the user chose (or the relaunched process's own) is kept: no second relaunch
  expect(relaunchEnv(['score-pairs'], { MIMALLOC_PURGE_DELAY: '10' })).toBeNull();
});

/**
 * A script that relaunches itself, then reports its settings and counts SIGINTs until told to exit. With
 * `early`, the relaunching process sends itself a SIGINT the moment the child has been started (as a Ctrl+C
 * that lands while a loaded machine holds that process back).
 */
function fixture(early = false): string {
  const path = join(root, early ? 'fixture-early.ts' : 'fixture.ts');
  const atSpawn = early
    ? `const spawn = Bun.spawn;
Bun.spawn = (...a) => { const c = spawn(...a); if (!process.env.FAUN_RELAUNCHED_BY) process.kill(process.pid, 'SIGINT'); return c; };
`
    : '';
  writeFileSync(
    path,
    `import { followParent, relaunch, relaunchEnv } from ${JSON.stringify(join(import.meta.dir, 'relaunch.ts'))};
${atSpawn}const env = relaunchEnv(['score-pairs'], process.env);
if (env) await relaunch(env);
followParent();
let ints = 0;
process.on('SIGINT', () => { ints++; setTimeout(() => { console.log('sigint ' + ints); process.exit(130); }, 300); });
console.log('delay ' + process.env.MIMALLOC_PURGE_DELAY + ' ' + process.argv.slice(2).join(' ') + ' pid ' + process.pid + ' ' + (process.env.FAUN_RELAUNCHED_BY ?? '-'));
if (process.argv[2] === 'exit') process.exit(Number(process.argv[3]));
setInterval(() => {}, 1000);
`,
  );
  return path;
}

async function started(p: {
  stdout: ReadableStream<Uint8Array>;
}): Promise<{ first: string; rest: Promise<string> }> {
  const reader = p.stdout.getReader();
  const dec = new TextDecoder();
  let text = '';
  while (!text.includes('\n')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += dec.decode(value);
  }
  const rest = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return text;
      text += dec.decode(value);
    }
  })();
  return { first: text.split('\n')[0] as string, rest };
}

test('the relaunched process gets the settings and the arguments; its exit code, one SIGINT per SIGINT, and a SIGTERM come back', async () => {
  const script = fixture();
  const r = Bun.spawnSync(['bun', script, 'exit', '7']);
  expect(r.stdout.toString().trim()).toMatch(/^delay -1 exit 7 pid \d+ -$/);
  expect(r.exitCode).toBe(7);

  const p = Bun.spawn(['bun', script, 'wait'], { stdout: 'pipe', stderr: 'inherit' });
  const { first, rest } = await started(p);
  expect(first).toMatch(/^delay -1 wait pid \d+ -$/);
  p.kill('SIGINT');
  expect(await p.exited).toBe(130);
  expect((await rest).trim().split('\n').at(-1)).toBe('sigint 1');

  const q = Bun.spawn(['bun', script, 'wait'], { stdout: 'pipe', stderr: 'inherit' });
  await started(q);
  q.kill('SIGTERM');
  await q.exited;
  expect(q.signalCode).toBe('SIGTERM');
}, 30_000);

test('a SIGINT that comes as the child starts is passed on to it, not lost with the relaunching process', async () => {
  const p = Bun.spawn(['bun', fixture(true), 'wait'], { stdout: 'pipe', stderr: 'inherit' });
  const out = await new Response(p.stdout).text();
  await p.exited;
  // The child got the SIGINT before its own handler was set, so it ended at once, and the relaunching process
  // ended by the same signal. Lost with the relaunching process, the child would have run on without it (its
  // first line printed) until it noticed its parent gone.
  expect(out).toBe('');
  expect(p.signalCode).toBe('SIGINT');
}, 30_000);

test('a relaunched process whose parent is killed outright (SIGKILL) stops within a second or so', async () => {
  const p = Bun.spawn(['bun', fixture(), 'wait'], { stdout: 'pipe', stderr: 'inherit' });
  const { first } = await started(p);
  const child = Number(/pid (\d+)/.exec(first)?.[1]);
  expect(child).toBeGreaterThan(0);
  expect(child).not.toBe(p.pid);
  const alive = () => {
    try {
      process.kill(child, 0);
      return true;
    } catch {
      return false;
    }
  };
  expect(alive()).toBe(true);
  p.kill('SIGKILL');
  await p.exited;
  const until = Date.now() + 5000;
  while (alive() && Date.now() < until) await Bun.sleep(50);
  const left = alive();
  if (left) process.kill(child, 'SIGKILL');
  expect(left).toBe(false);
}, 30_000);
