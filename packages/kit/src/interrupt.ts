/**
 * Ctrl+C handling for long runs: the first SIGINT aborts `signal` (the run stops taking new work,
 * flushes, and prints the resume command); a second SIGINT exits at once with code 130.
 */
export interface Interrupt {
  signal: AbortSignal;
  /** Removes the handlers. */
  dispose(): void;
}

export function onInterrupt(
  resumeCommand: () => string | null,
  stream: NodeJS.WritableStream = process.stderr,
  /** The signals handled; one left out keeps its default action (SIGTERM: stop at once). */
  signals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'],
): Interrupt {
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
  for (const s of signals) process.on(s, handler);
  return {
    signal: ctl.signal,
    dispose() {
      for (const s of signals) process.off(s, handler);
    },
  };
}
