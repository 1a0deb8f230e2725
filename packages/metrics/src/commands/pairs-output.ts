/**
 * The output file of `faun score-pairs --out`: checked before the run (never the input, never a
 * folder), read back to resume (complete lines are kept, a torn last line is cut off), and appended to
 * as lines finish (flushed at least every `flushMs`, so an interrupted run keeps what it finished).
 */
import {
  closeSync,
  existsSync,
  openSync,
  readFileSync,
  realpathSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { resolve } from 'node:path';
import { InputError, UsageError } from '@faun/kit';
import { countNonEmptyLines } from '@faun/schema/io';

const same = (a: string, b: string): boolean => {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return resolve(a) === resolve(b);
  }
};

/** Refuses an `--out` that is the input or a folder. */
export function checkOutPath(out: string, input: string): void {
  if (same(out, input))
    throw new UsageError(`--out ${out} is the input file; writing it would destroy the input`, {
      hint: 'pass another file to --out',
    });
  if (existsSync(out) && statSync(out).isDirectory())
    throw new UsageError(`--out ${out}: is a directory`, {
      hint: 'pass a file path to --out, e.g. scored.jsonl',
    });
}

/**
 * The complete lines of an earlier (interrupted) output, for resume; a last line without its newline
 * was torn by the interruption and is cut off the file.
 */
export function finishedLines(out: string): string[] {
  if (!existsSync(out)) return [];
  const text = readFileSync(out, 'utf8');
  const end = text.lastIndexOf('\n') + 1;
  if (end < text.length) truncateSync(out, Buffer.byteLength(text.slice(0, end)));
  return end === 0 ? [] : text.slice(0, end - 1).split('\n');
}

/** Non-empty lines of `path`, up to `limit`. */
export async function countLines(path: string, limit?: number): Promise<number> {
  return countNonEmptyLines(path, limit);
}

/** Appends lines to a file, flushing when the buffer is large or `flushMs` passed since the last flush. */
export class LineAppender {
  private readonly fd: number;
  private buf = '';
  private last = Date.now();
  private readonly timer: ReturnType<typeof setInterval>;
  constructor(
    path: string,
    private readonly flushMs = 200,
  ) {
    this.fd = openSync(path, 'a');
    // lines waiting while the next one is scored elsewhere (a worker) still reach the disk in time
    this.timer = setInterval(() => this.flush(), flushMs);
    this.timer.unref();
  }
  add(line: string): void {
    // the lines finished in one turn of the event loop reach the disk before the next line is scored
    if (!this.buf) queueMicrotask(() => this.flush());
    this.buf += line;
    if (this.buf.length >= 1 << 18 || Date.now() - this.last >= this.flushMs) this.flush();
  }
  flush(): void {
    if (this.buf) writeSync(this.fd, this.buf);
    this.buf = '';
    this.last = Date.now();
  }
  close(): void {
    clearInterval(this.timer);
    this.flush();
    closeSync(this.fd);
  }
}

/** A finished output line checked against its input line: the same hyp and ref, or an InputError. */
export function checkResumedLine(
  out: string,
  outLine: number,
  done: string,
  input: string,
  inLine: number,
  row: Record<string, unknown> | null,
): Record<string, unknown> {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(done) as Record<string, unknown>;
  } catch {
    throw new InputError(`${out}:${outLine}: not JSON; this file is not an output of faun score-pairs`, {
      hint: 'delete it or pass another --out (re-running the same command resumes its own output)',
    });
  }
  if (row && typeof o.error !== 'string' && (o.hyp !== row.hyp || o.ref !== row.ref))
    throw new InputError(
      `${out}:${outLine}: hyp/ref differ from ${input}:${inLine}; ${out} holds the scores of another input`,
      { hint: 'delete it or pass another --out to start over' },
    );
  return o;
}
