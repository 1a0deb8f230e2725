/** Small process helpers: run a command to completion, check a command exists, find a free port. */
import { createServer } from 'node:net';
import { outputOf, type ProcessOutput } from '@faun/kit';

export type RunResult = ProcessOutput;

/** Runs a command to completion (no shell); never throws for a non-zero exit. */
export async function run(
  cmd: string[],
  opts: { env?: Record<string, string>; input?: string } = {},
): Promise<RunResult> {
  try {
    const proc = Bun.spawn(cmd, {
      stdout: 'pipe',
      stderr: 'pipe',
      stdin: opts.input === undefined ? 'ignore' : new TextEncoder().encode(opts.input),
      env: { ...process.env, ...opts.env },
    });
    return await outputOf(proc);
  } catch (e) {
    return { code: 127, stdout: '', stderr: (e as Error).message };
  }
}

/** Feeds the lines of a stream to `onLine` as they arrive. */
async function pumpLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
  const decoder = new TextDecoder();
  let carry = '';
  for await (const chunk of stream) {
    carry += decoder.decode(chunk, { stream: true });
    const lines = carry.split('\n');
    carry = lines.pop() ?? '';
    for (const l of lines) onLine(l);
  }
  if (carry) onLine(carry);
}

/** Runs a command, streaming its output lines to `log`; returns the exit code. */
export async function runLogged(
  cmd: string[],
  log: (line: string) => void,
  env?: Record<string, string>,
): Promise<number> {
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...env } });
  await Promise.all([pumpLines(proc.stdout, log), pumpLines(proc.stderr, log)]);
  return proc.exited;
}

/**
 * Runs a chatty command (apt-get, debootstrap) without printing its output: at most one status line
 * every `everyMs` after its first line goes to `log` (its latest line, so a long step still shows it is
 * moving), and the last
 * `keep` lines come back for the error message when it fails.
 */
export async function runQuiet(
  cmd: string[],
  o: { log?: (line: string) => void; env?: Record<string, string>; everyMs?: number; keep?: number } = {},
): Promise<{ code: number; tail: string[]; lines: number }> {
  const keep = o.keep ?? 25;
  const every = o.everyMs ?? 15_000;
  const tail: string[] = [];
  let lines = 0;
  // the clock starts at the first line: a slow start-up never makes the first line a status line
  let last: number | null = null;
  const onLine = (l: string) => {
    if (!l.trim()) return;
    lines++;
    tail.push(l);
    if (tail.length > keep) tail.shift();
    last ??= Date.now();
    if (o.log && Date.now() - last >= every) {
      last = Date.now();
      o.log(`  … ${l.trim().slice(0, 160)}`);
    }
  };
  const proc = Bun.spawn(cmd, { stdout: 'pipe', stderr: 'pipe', env: { ...process.env, ...o.env } });
  await Promise.all([pumpLines(proc.stdout, onLine), pumpLines(proc.stderr, onLine)]);
  return { code: await proc.exited, tail, lines };
}

export function which(cmd: string): string | null {
  return Bun.which(cmd);
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns true or `timeoutMs` passes. */
export async function waitFor(
  check: () => Promise<boolean>,
  timeoutMs: number,
  everyMs = 100,
): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return true;
    await sleep(everyMs);
  }
  return check();
}

/** Where a throwaway server starts: `port` first (default: a free one), up to `attempts` ports (default 5). */
export interface PortOptions {
  port?: number;
  attempts?: number;
}

export type StartState = 'ready' | 'exited' | 'timeout';

/** Polls `ready` every `everyMs` until it holds (`ready`), `proc` exits (`exited`) or `ms` pass (`timeout`). */
export async function awaitStart(
  proc: Bun.Subprocess,
  ready: () => Promise<boolean>,
  ms: number,
  everyMs: number,
): Promise<StartState> {
  const end = Date.now() + ms;
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode !== null) return 'exited';
    // ready, and still its own process (not a server that was there before and answered)
    if (await ready()) return proc.exitCode === null ? 'ready' : 'exited';
    if (Date.now() > end) return 'timeout';
    await sleep(everyMs);
  }
}

/**
 * Starts a server with `start(port)`, again on another free port when it exits while starting (`freePort()`
 * only knew the port was free an instant ago: another process can take it first), until it is ready, times
 * out or `attempts` ports were tried. A server that is not ready is stopped; the failure names the ports.
 */
export async function startOnFreePort(
  o: PortOptions,
  start: (port: number) => Promise<{ state: StartState; proc: Bun.Subprocess }>,
): Promise<{ proc: Bun.Subprocess; port: number } | { failed: StartState; tried: number[] }> {
  const tried: number[] = [];
  let failed: StartState = 'exited';
  for (let i = 0; i < (o.attempts ?? 5) && failed !== 'timeout'; i++) {
    const port = i === 0 && o.port ? o.port : await freePort();
    tried.push(port);
    const { state, proc } = await start(port);
    if (state === 'ready') return { proc, port };
    proc.kill();
    await proc.exited;
    failed = state;
  }
  return { failed, tried };
}
