/**
 * Runtime settings that only take effect from process start: `faun score-pairs` runs itself again with them
 * when they are missing from the environment.
 *
 * The runtime's allocator hands freed pages back to the kernel 10 ms after they empty (`madvise`). A scoring
 * run frees and refills the same buffers for every pair, so it pays ~1.5 such calls per pair, each a TLB
 * flush on every core the process runs on: on a 2-core virtual machine that was ~13% of a CodeBLEU run's CPU
 * time, more when other jobs keep the cores busy. With `MIMALLOC_PURGE_DELAY=-1` the pages stay with the
 * process for the run (peak RSS ~20% higher: 20,000 CodeBLEU pairs on two threads 400 MB instead of 330). The allocator
 * reads the variable once at start-up, so the command starts itself again with it set; the first process
 * only relays signals and the exit status. The results do not depend on any of this.
 *
 * A variable already in the environment is left as it is (set `MIMALLOC_PURGE_DELAY` to any value, e.g. 10,
 * the allocator's default, to run without the relaunch).
 */
import type { Subprocess } from 'bun';

/** The verbs whose runs relaunch (long runs of many small jobs). */
const TUNED_VERBS = new Set(['score-pairs']);

/** What the relaunched process gets. */
export const TUNED_ENV: Readonly<Record<string, string>> = { MIMALLOC_PURGE_DELAY: '-1' };

/** Names the relaunching process in the relaunched one's environment (see {@link followParent}). */
export const PARENT_VAR = 'FAUN_RELAUNCHED_BY';

/** The environment to relaunch with, or null when this run needs no relaunch. */
export function relaunchEnv(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  pid: number = process.pid,
): Record<string, string> | null {
  if (!argv.some((a) => TUNED_VERBS.has(a))) return null;
  const missing = Object.entries(TUNED_ENV).filter(([k]) => env[k] === undefined);
  if (missing.length === 0) return null;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  for (const [k, v] of missing) out[k] = v;
  out[PARENT_VAR] = String(pid);
  return out;
}

/**
 * In a relaunched process: stops it (SIGTERM, whose default ends a run at once, finished lines kept) when
 * the process that started it is gone without relaying anything (killed by SIGKILL): the run has a session
 * of its own, so nothing else would stop it. Checked twice a second; keeps no process alive.
 */
export function followParent(env: Record<string, string | undefined> = process.env): void {
  const parent = Number(env[PARENT_VAR]);
  delete env[PARENT_VAR]; // not for the processes this one starts
  if (!Number.isInteger(parent) || parent <= 0) return;
  const timer = setInterval(() => {
    if (process.ppid !== parent) process.kill(process.pid, 'SIGTERM');
  }, 500);
  timer.unref();
}

/** Signals passed on to the relaunched process (each once: it has a session of its own). */
const RELAYED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];

/**
 * Runs this command again with `env` and ends this process as it ends: with its exit code, or killed by the
 * same signal. The child runs in a session of its own so that a Ctrl+C at the terminal reaches it once (relayed
 * from here), not twice (its second SIGINT would stop it at once instead of after the current line).
 */
export async function relaunch(env: Record<string, string>): Promise<never> {
  const argv = [process.execPath, ...process.execArgv, ...process.argv.slice(1)];
  // The handlers are in place before the child starts: a signal that came between the two (a loaded machine
  // can hold this process back while the child starts) would otherwise end this process by its default
  // action, leaving the child, in its own session, without it. One that comes before the child exists is
  // passed on as soon as it does.
  let child: Subprocess | undefined;
  const early: NodeJS.Signals[] = [];
  const relay = (s: NodeJS.Signals) => () => (child ? child.kill(s) : early.push(s));
  const handlers = RELAYED.map((s) => [s, relay(s)] as const);
  for (const [s, h] of handlers) process.on(s, h);
  child = Bun.spawn(argv, { env, stdio: ['inherit', 'inherit', 'inherit'], detached: true });
  for (const s of early) child.kill(s);
  const code = await child.exited;
  for (const [s, h] of handlers) process.off(s, h);
  const signal = child.signalCode;
  if (signal) {
    process.kill(process.pid, signal);
    await Bun.sleep(1000); // the signal's default action ends this process
  }
  process.exit(code);
}
