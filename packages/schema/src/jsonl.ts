/**
 * Streaming JSONL: read large files line by line in bounded memory with `file:line: field: problem`
 * errors; write atomically (temp file + fsync + rename) so an interrupted write leaves the old file intact.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { appendFile, mkdir, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { ZodType } from 'zod';
import { stableStringify } from './stable-json.ts';

export interface JsonlIssue {
  file: string;
  line: number;
  /** Dotted path of the offending field, or '' for the whole line. */
  field: string;
  problem: string;
}

export function formatIssue(i: JsonlIssue): string {
  return `${i.file}:${i.line}: ${i.field || '(line)'}: ${i.problem}`;
}

/** Thrown in `stop` mode on the first bad line; names the file, line, field and problem. */
export class JsonlError extends Error {
  constructor(readonly issue: JsonlIssue) {
    super(
      `${formatIssue(issue)} — fix or remove this line, or read with errors: 'collect' to skip bad lines`,
    );
    this.name = 'JsonlError';
  }
}

export interface ReadJsonlOptions<T> {
  schema?: ZodType<T>;
  /** `stop` (default): throw at the first bad line. `collect`: push issues to `issues` and go on. */
  errors?: 'stop' | 'collect';
  issues?: JsonlIssue[];
  /** Skip blank lines silently (default true). */
  skipBlank?: boolean;
}

export interface JsonlRow<T> {
  line: number;
  value: T;
}

/** Bytes read per chunk by {@link readLines} and {@link countNonEmptyLines}. */
const CHUNK = 1 << 20;

/**
 * The lines of a file as byte ranges of a reused buffer, with their 1-based numbers: `end` excludes the
 * newline (and a CR before it); the last line may lack its newline. A leading UTF-8 byte order mark is
 * skipped. Memory is bounded by the longest line.
 */
function* byteLines(path: string): Generator<{ line: number; buf: Uint8Array; start: number; end: number }> {
  const fd = openSync(path, 'r');
  try {
    let buf = new Uint8Array(CHUNK);
    let have = 0;
    let lineNo = 0;
    let first = true;
    for (;;) {
      if (have === buf.length) {
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf);
        buf = bigger;
      }
      const n = readSync(fd, buf, have, buf.length - have, null);
      const end = have + n;
      let start = 0;
      if (first && end >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) start = 3;
      if (first && (end >= 3 || n === 0)) first = false;
      if (n === 0) {
        if (end > start) yield { line: lineNo + 1, buf, start, end };
        return;
      }
      const view = buf.subarray(0, end);
      for (let nl = view.indexOf(10, start); nl >= 0; nl = view.indexOf(10, start)) {
        lineNo++;
        yield { line: lineNo, buf, start, end: nl > start && buf[nl - 1] === 13 ? nl - 1 : nl };
        start = nl + 1;
      }
      buf.copyWithin(0, start, end);
      have = end - start;
    }
  } finally {
    closeSync(fd);
  }
}

/** Yields raw text lines with their 1-based numbers, reading the file in chunks. */
export async function* readLines(path: string): AsyncGenerator<{ line: number; text: string }> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  for (const { line, buf, start, end } of byteLines(path))
    yield { line, text: decoder.decode(buf.subarray(start, end)) };
}

/** Bytes `String.prototype.trim` removes that are ASCII: tab, LF, VT, FF, CR, space. */
function asciiSpace(b: number): boolean {
  return b === 32 || (b >= 9 && b <= 13);
}

/**
 * The lines of `path` with something besides whitespace (`text.trim() !== ''`, as {@link readLines}
 * gives them), up to `limit`; only lines of whitespace and non-ASCII bytes are decoded to decide.
 */
export function countNonEmptyLines(path: string, limit?: number): number {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let n = 0;
  for (const { buf, start, end } of byteLines(path)) {
    let content = false;
    let wide = false;
    for (let i = start; i < end; i++) {
      const b = buf[i] as number;
      if (b >= 0x80) wide = true;
      else if (!asciiSpace(b)) {
        content = true;
        break;
      }
    }
    if (!content && wide) content = decoder.decode(buf.subarray(start, end)).trim() !== '';
    if (content && ++n === limit) break;
  }
  return n;
}

/** Parses one JSONL line; returns the value or an issue. */
export function parseJsonlLine<T>(
  file: string,
  line: number,
  text: string,
  schema?: ZodType<T>,
): { ok: true; value: T } | { ok: false; issue: JsonlIssue } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      issue: { file, line, field: '', problem: `not valid JSON (${(e as Error).message})` },
    };
  }
  if (!schema) return { ok: true, value: raw as T };
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: parsed.data };
  const first = parsed.error.issues[0];
  const field = first ? first.path.map(String).join('.') : '';
  const problem = parsed.error.issues
    .map(
      (i) =>
        (i.path.length && i.path.map(String).join('.') !== field ? `${i.path.join('.')}: ` : '') + i.message,
    )
    .join('; ');
  return { ok: false, issue: { file, line, field, problem } };
}

/** Streams validated rows from a JSONL file. */
export async function* readJsonl<T = unknown>(
  path: string,
  opts: ReadJsonlOptions<T> = {},
): AsyncGenerator<JsonlRow<T>> {
  const mode = opts.errors ?? 'stop';
  const skipBlank = opts.skipBlank ?? true;
  for await (const { line, text } of readLines(path)) {
    if (skipBlank && text.trim() === '') continue;
    const r = parseJsonlLine(path, line, text, opts.schema);
    if (r.ok) yield { line, value: r.value };
    else if (mode === 'stop') throw new JsonlError(r.issue);
    else opts.issues?.push(r.issue);
  }
}

/** Reads a whole (small) JSONL file: values plus the issues of bad lines in `collect` mode. */
export async function readJsonlAll<T = unknown>(
  path: string,
  opts: Omit<ReadJsonlOptions<T>, 'issues'> = {},
): Promise<{ values: T[]; issues: JsonlIssue[] }> {
  const issues: JsonlIssue[] = [];
  const values: T[] = [];
  for await (const row of readJsonl(path, { ...opts, issues })) values.push(row.value);
  return { values, issues };
}

/** Serializes one record as a JSONL line (sorted keys, trailing newline). */
export function toJsonlLine(value: unknown): string {
  return `${stableStringify(value)}\n`;
}

/**
 * Writes all records to `path` atomically: a temp file in the same folder, fsync, then rename.
 * If the iteration or the write fails, the temp file is removed and the old file stays intact.
 */
export async function writeJsonlAtomic(
  path: string,
  records: Iterable<unknown> | AsyncIterable<unknown>,
): Promise<number> {
  let n = 0;
  await writeFileAtomic(path, async (write) => {
    let buf = '';
    for await (const r of records as AsyncIterable<unknown>) {
      buf += toJsonlLine(r);
      n++;
      if (buf.length >= 1 << 20) {
        await write(buf);
        buf = '';
      }
    }
    if (buf) await write(buf);
  });
  return n;
}

/** Atomic write of any text produced by `produce`, via temp file + fsync + rename. */
export async function writeFileAtomic(
  path: string,
  produce: string | ((write: (chunk: string) => Promise<void>) => Promise<void>),
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const fh = await open(tmp, 'w');
  try {
    const write = async (chunk: string) => {
      await fh.write(chunk);
    };
    if (typeof produce === 'string') await write(produce);
    else await produce(write);
    await fh.sync();
    await fh.close();
    await rename(tmp, path);
  } catch (e) {
    await fh.close().catch(() => {});
    await rm(tmp, { force: true });
    throw e;
  }
}

/** Appends records one line at a time (for `samples.jsonl`, so a crash leaves a usable partial file). */
export async function appendJsonl(path: string, records: unknown[]): Promise<void> {
  if (records.length === 0) return;
  await mkdir(dirname(path), { recursive: true });
  await appendFile(path, records.map(toJsonlLine).join(''));
}
