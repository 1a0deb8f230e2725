/**
 * The shared progress display: a bar with completed/total, rate, ETA and a status text on a TTY;
 * plain log lines (at most one every `plainEveryMs`) when stderr is not a TTY or in CI. Writes to
 * stderr so `--json` output on stdout stays clean.
 */
import { createRequire } from 'node:module';

/** cli-progress, loaded only when a bar is drawn (quiet and non-TTY runs never pay for it). */
const loadCliProgress = (): typeof import('cli-progress') =>
  createRequire(import.meta.url)('cli-progress') as typeof import('cli-progress');

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

/** Seconds as `42s`, `3m05s`, `1h02m`. */
export function formatDuration(secs: number): string {
  const s = Math.max(0, Math.round(secs));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

const formatRate = (r: number) => (r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2));

/**
 * The text of one progress report: `count/total (pct%)`, elapsed time, rate and ETA (without a known
 * total: the count, elapsed time and rate only). With `since` (the count and time of the first report),
 * the ETA comes from the rate after it — the first unit carries the start-up (workers, grammars, a warm
 * cache), and a rate that includes it overestimates the rest many times over; until a unit has finished
 * after it, no ETA is shown.
 */
export function progressText(
  value: number,
  total: number,
  elapsedS: number,
  status = '',
  since?: { value: number; elapsedS: number },
): string {
  const rate = elapsedS > 0 ? value / elapsedS : 0;
  const parts = [
    total > 0 ? `${value}/${total} (${((100 * value) / total).toFixed(1)}%)` : `${value}`,
    `${elapsedS.toFixed(1)}s`,
  ];
  if (value > 0 && elapsedS > 0) parts.push(`${formatRate(rate)}/s`);
  const steady = since
    ? value > since.value && elapsedS > since.elapsedS
      ? (value - since.value) / (elapsedS - since.elapsedS)
      : 0
    : rate;
  if (total > 0 && value > 0 && steady > 0 && value < total)
    parts.push(`ETA ${formatDuration((total - value) / steady)}`);
  return `${parts.join(' ')}${status ? ` ${status}` : ''}`;
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
  const elapsed = () => (Date.now() - started) / 1000;
  // the first report: the ETA is measured from here (see progressText)
  let since: { value: number; elapsedS: number } | undefined;
  const mark = () => {
    since ??= { value, elapsedS: elapsed() };
  };
  if (plain) {
    const every = opts.plainEveryMs ?? 2000;
    let last = 0;
    let shown = '';
    const line = (force: boolean) => {
      const now = Date.now();
      if (!force && now - last < every) return;
      // the closing line repeats nothing: when the count and status are those of the last line, it is not printed again
      const state = `${value}/${total} ${text}`;
      if (force && state === shown) return;
      last = now;
      shown = state;
      stream.write(`${opts.label}: ${progressText(value, total, elapsed(), text, since)}\n`);
    };
    return {
      setTotal(t) {
        total = t;
      },
      tick(n = 1, s) {
        value += n;
        if (s !== undefined) text = s;
        mark();
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
  const cliProgress = loadCliProgress();
  const bar = new cliProgress.SingleBar(
    {
      // one format for known and unknown totals (no "N/0 100%"), with the rate and the ETA
      format: (_o, p, payload: { status?: string }) => {
        const width = 24;
        const fill = p.total > 0 ? Math.round(Math.min(1, p.value / p.total) * width) : 0;
        const barText = p.total > 0 ? `${'█'.repeat(fill)}${'░'.repeat(width - fill)} ` : '';
        return `${opts.label} ${barText}${progressText(p.value, p.total, elapsed(), payload.status ?? '', since)}`;
      },
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
      mark();
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
