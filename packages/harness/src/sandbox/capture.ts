/**
 * Bounded capture of a command's output (pure): the first `headBytes` and the last `tailBytes` are kept,
 * everything between is counted and dropped, so a test that prints without end costs faun a fixed amount of
 * memory. Bytes are decoded once, at the end (a character split across two chunks stays whole).
 */

export interface OutputLimits {
  headBytes: number;
  tailBytes: number;
}

/** 16 MB at each end: the largest real test logs (whole Maven suites with their reports) fit whole. */
export const DEFAULT_OUTPUT_LIMITS: OutputLimits = { headBytes: 16 << 20, tailBytes: 16 << 20 };

/** The line that stands where output was dropped; it names how much. */
export function omissionLine(omitted: number): string {
  return `[faun: ${omitted} bytes of output omitted here]`;
}

export class OutputCapture {
  private readonly head: Uint8Array;
  private headLen = 0;
  /** A ring buffer of the last `tailBytes`. */
  private readonly tail: Uint8Array;
  private tailStart = 0;
  private tailLen = 0;
  private total = 0;

  constructor(limits: OutputLimits = DEFAULT_OUTPUT_LIMITS) {
    this.head = new Uint8Array(Math.max(0, limits.headBytes));
    this.tail = new Uint8Array(Math.max(0, limits.tailBytes));
  }

  /** Every byte seen, kept or not. */
  get totalBytes(): number {
    return this.total;
  }

  /** Bytes seen but not kept. */
  get omittedBytes(): number {
    return this.total - this.headLen - this.tailLen;
  }

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLen < this.head.length) {
      const n = Math.min(rest.length, this.head.length - this.headLen);
      this.head.set(rest.subarray(0, n), this.headLen);
      this.headLen += n;
      rest = rest.subarray(n);
    }
    const cap = this.tail.length;
    if (!rest.length || cap === 0) return;
    if (rest.length >= cap) {
      this.tail.set(rest.subarray(rest.length - cap));
      this.tailStart = 0;
      this.tailLen = cap;
      return;
    }
    for (let i = 0; i < rest.length; ) {
      const at = (this.tailStart + this.tailLen) % cap;
      if (this.tailLen < cap) {
        const n = Math.min(rest.length - i, cap - at, cap - this.tailLen);
        this.tail.set(rest.subarray(i, i + n), at);
        this.tailLen += n;
        i += n;
      } else {
        // full: overwrite the oldest bytes
        const n = Math.min(rest.length - i, cap - this.tailStart);
        this.tail.set(rest.subarray(i, i + n), this.tailStart);
        this.tailStart = (this.tailStart + n) % cap;
        i += n;
      }
    }
  }

  private tailBytes(): Uint8Array {
    const cap = this.tail.length;
    const out = new Uint8Array(this.tailLen);
    const first = Math.min(this.tailLen, cap - this.tailStart);
    out.set(this.tail.subarray(this.tailStart, this.tailStart + first));
    out.set(this.tail.subarray(0, this.tailLen - first), first);
    return out;
  }

  /** The kept output as text: head, the omission line when bytes were dropped, tail. */
  text(): string {
    const dec = (b: Uint8Array) => new TextDecoder('utf-8', { fatal: false }).decode(b);
    const head = this.head.subarray(0, this.headLen);
    if (this.omittedBytes === 0) {
      const all = new Uint8Array(this.headLen + this.tailLen);
      all.set(head);
      all.set(this.tailBytes(), this.headLen);
      return dec(all);
    }
    return `${dec(head)}\n${omissionLine(this.omittedBytes)}\n${dec(this.tailBytes())}`;
  }
}

/** Reads a byte stream to its end into a capture. */
export async function captureStream(
  stream: ReadableStream<Uint8Array> | null | undefined,
  into: OutputCapture,
): Promise<void> {
  if (!stream) return;
  for await (const chunk of stream) into.push(chunk);
}

/** Reads a process's stdout (the merged output) and stderr (the runtime's own messages) into one text. */
export async function captureProcess(
  p: {
    stdout: ReadableStream<Uint8Array> | null | undefined;
    stderr: ReadableStream<Uint8Array> | null | undefined;
  },
  limits: OutputLimits = DEFAULT_OUTPUT_LIMITS,
): Promise<{ text: () => string; omittedBytes: () => number }> {
  const out = new OutputCapture(limits);
  const err = new OutputCapture({ headBytes: 64 << 10, tailBytes: 64 << 10 });
  await Promise.all([captureStream(p.stdout, out), captureStream(p.stderr, err)]);
  return {
    text: () => out.text() + (err.totalBytes ? err.text() : ''),
    omittedBytes: () => out.omittedBytes + err.omittedBytes,
  };
}
