import { expect, test } from 'bun:test';
import { OutputCapture, omissionLine } from './capture.ts';

const enc = (s: string) => new TextEncoder().encode(s);

/** A seeded sequence of chunk sizes, so every run splits the input the same way. */
function chunks(bytes: Uint8Array, seed: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  let x = seed;
  for (let i = 0; i < bytes.length; ) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const n = 1 + (x % 37);
    out.push(bytes.subarray(i, i + n));
    i += n;
  }
  return out;
}

test('short output is kept whole, whatever the chunking', () => {
  const text = 'PASSED a\nFAILED b ✓ é\n'.repeat(20);
  for (const seed of [1, 2, 3]) {
    const c = new OutputCapture({ headBytes: 64, tailBytes: 4096 });
    for (const ch of chunks(enc(text), seed)) c.push(ch);
    expect(c.text()).toBe(text);
    expect(c.omittedBytes).toBe(0);
  }
});

test('long output keeps exactly its first and last bytes and names how many were dropped', () => {
  const bytes = enc(Array.from({ length: 5000 }, (_, i) => `line ${i}\n`).join(''));
  for (const seed of [7, 8, 9]) {
    const c = new OutputCapture({ headBytes: 100, tailBytes: 250 });
    for (const ch of chunks(bytes, seed)) c.push(ch);
    const dec = (b: Uint8Array) => new TextDecoder().decode(b);
    const omitted = bytes.length - 350;
    expect(c.totalBytes).toBe(bytes.length);
    expect(c.omittedBytes).toBe(omitted);
    expect(c.text()).toBe(
      `${dec(bytes.subarray(0, 100))}\n${omissionLine(omitted)}\n${dec(bytes.subarray(bytes.length - 250))}`,
    );
  }
});

test('a single chunk larger than both ends', () => {
  const bytes = enc('x'.repeat(10_000) + 'END');
  const c = new OutputCapture({ headBytes: 3, tailBytes: 5 });
  c.push(bytes);
  expect(c.text()).toBe(`xxx\n${omissionLine(10_003 - 8)}\nxxEND`);
});

test('memory stays bounded: 600 MB through a 2 MB capture', () => {
  const c = new OutputCapture({ headBytes: 1 << 20, tailBytes: 1 << 20 });
  const block = new Uint8Array(1 << 20).fill(97);
  for (let i = 0; i < 600; i++) c.push(block);
  expect(c.totalBytes).toBe(600 << 20);
  expect(c.omittedBytes).toBe(598 << 20);
  expect(c.text().length).toBeLessThan((2 << 20) + 100);
});
