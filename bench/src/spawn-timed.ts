/**
 * One timed run of a command for the benchmarks: stdin from a file and stdout to a file (or none), faun's
 * update check off; a failure throws with the end of the command's stderr.
 */

export interface Timed {
  wall_s: number;
  /** User + system CPU seconds of the command and its children (NaN when the runtime gives none). */
  cpu_s: number;
  /** The runtime's resource usage of the spawn, when it gives one. */
  usage: Bun.SyncSubprocess['resourceUsage'] | undefined;
}

/** Runs `cmd` (behind `prefix`, e.g. GNU time, which messages leave out) to its end. */
export function spawnTimed(
  cmd: string[],
  opts: { stdin?: string; stdout?: string; env?: Record<string, string>; prefix?: string[] } = {},
): Timed {
  const t0 = performance.now();
  const p = Bun.spawnSync([...(opts.prefix ?? []), ...cmd], {
    stdin: opts.stdin ? Bun.file(opts.stdin) : 'ignore',
    stdout: opts.stdout ? Bun.file(opts.stdout) : 'ignore',
    stderr: 'pipe',
    env: { ...process.env, FAUN_NO_UPDATE_CHECK: '1', ...opts.env },
  });
  const wall = (performance.now() - t0) / 1000;
  if (p.exitCode !== 0)
    throw new Error(
      `${cmd.slice(0, 4).join(' ')} … exited ${p.exitCode}: ${p.stderr.toString().slice(-2000)}`,
    );
  const u = p.resourceUsage;
  return { wall_s: wall, cpu_s: u ? Number(u.cpuTime.total) / 1e6 : Number.NaN, usage: u };
}
