/**
 * Ctrl+C handling for long runs: the first SIGINT aborts `signal` (the run stops taking new work,
 * flushes, and prints the resume command); a second SIGINT exits at once with code 130.
 */
export interface Interrupt {
  signal: AbortSignal;
  /** Removes the handlers. */
  dispose(): void;
}

export function onInterrupt(resumeCommand: () => string | null, stream = process.stderr): Interrupt {
  const ctl = new AbortController();
  let count = 0;
  const handler = () => {
    count++;
    if (count === 1) {
      const cmd = resumeCommand();
      stream.write(
        `\ninterrupted: finishing what is in flight and saving…${cmd ? `\nresume with: ${cmd}` : ''}\n`,
      );
      ctl.abort(new Error('interrupted'));
    } else {
      process.exit(130);
    }
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    signal: ctl.signal,
    dispose() {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/**
 * How the user runs faun here: `faun` when installed as a command, `bun run faun` in a checkout (the
 * CLI's entry file is run directly, or through a package script).
 */
export function commandPrefix(argv1: string = process.argv[1] ?? '', env = process.env): string {
  return env.npm_lifecycle_event || /\bmain\.ts$/.test(argv1) ? 'bun run faun' : 'faun';
}

/** The command line that re-runs (and so resumes) `faun <args>`, shell-quoted. */
export function resumeCommand(args: readonly string[], prefix = commandPrefix()): string {
  const quote = (a: string) => (/^[\w./:=,@+%-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
  return [prefix, ...args.map(quote)].join(' ');
}
