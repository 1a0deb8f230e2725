/**
 * The shared progress display: a bar with completed/total, rate, ETA and a status text on a TTY;
 * plain log lines (at most one every `plainEveryMs`) when stderr is not a TTY or in CI. Writes to
 * stderr so `--json` output on stdout stays clean.
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** Sets the total (may grow while work is discovered). */
  setTotal(total: number): void;
  /** Adds `n` finished units and optionally updates the status text. */
  tick(n?: number, status?: string): void;
  /** Updates the status text only. */
  status(text: string): void;
  /** Stops the display; prints a final line. */
  done(text?: string): void;
}

export interface ProgressOptions {
  label: string;
  total?: number;
  quiet?: boolean;
  /** Force plain lines (tests, CI). Default: plain unless stderr is a TTY and CI is unset. */
  plain?: boolean;
  plainEveryMs?: number;
  stream?: NodeJS.WritableStream;
}

export function createProgress(opts: ProgressOptions): Progress {
  const stream = opts.stream ?? process.stderr;
  if (opts.quiet) return { setTotal() {}, tick() {}, status() {}, done() {} };
  const tty = Boolean((stream as NodeJS.WriteStream).isTTY) && !process.env.CI;
  const plain = opts.plain ?? !tty;
  let total = opts.total ?? 0;
  let value = 0;
  let text = '';
  const started = Date.now();
  if (plain) {
    const every = opts.plainEveryMs ?? 2000;
    let last = 0;
    const line = (force: boolean) => {
      const now = Date.now();
      if (!force && now - last < every) return;
      last = now;
      const secs = (now - started) / 1000;
      const pct = total > 0 ? ` (${((100 * value) / total).toFixed(1)}%)` : '';
      stream.write(`${opts.label}: ${value}${total ? `/${total}` : ''}${pct} ${secs.toFixed(1)}s ${text}\n`);
    };
    return {
      setTotal(t) {
        total = t;
      },
      tick(n = 1, s) {
        value += n;
        if (s !== undefined) text = s;
        line(false);
      },
      status(s) {
        text = s;
        line(false);
      },
      done(s) {
        if (s !== undefined) text = s;
        line(true);
      },
    };
  }
  const bar = new cliProgress.SingleBar(
    {
      format: `${opts.label} {bar} {value}/{total} {percentage}% | {eta_formatted} left | {status}`,
      stream: stream as NodeJS.WriteStream,
      hideCursor: true,
      clearOnComplete: false,
    },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0, { status: '' });
  return {
    setTotal(t) {
      total = t;
      bar.setTotal(t);
    },
    tick(n = 1, s) {
      value += n;
      bar.increment(n, s === undefined ? undefined : { status: s });
    },
    status(s) {
      bar.update({ status: s });
    },
    done(s) {
      if (s !== undefined) bar.update({ status: s });
      bar.stop();
    },
  };
}
