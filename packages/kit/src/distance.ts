/**
 * Bit-parallel sequence distances on integer sequences (code points or token ids), 32 bits per word:
 * LCS length (Allison–Dix / Hyyrö) and Levenshtein distance (Myers / Hyyrö 2003 block algorithm).
 * Both trim the common prefix and suffix first. O(⌈m/32⌉·n) time.
 * @module
 */

/** Per-symbol match bit vectors of the pattern `a` (bit i of block w set when a[32w+i] = symbol). */
class PatternMatch {
  readonly words: number;
  private readonly ascii: Uint32Array;
  private readonly other = new Map<number, Uint32Array>();
  private static readonly EMPTY = new Uint32Array(0);

  /** `bits` per word: 32 for Levenshtein, 30 for LCS (its additions then stay in int32 range). */
  constructor(a: Int32Array, start: number, end: number, bits = 32) {
    const len = end - start;
    this.words = Math.ceil(len / bits);
    this.ascii = new Uint32Array(256 * this.words);
    for (let i = 0; i < len; i++) {
      const c = a[start + i]!;
      const w = Math.floor(i / bits);
      const bit = 1 << (i % bits);
      if (c >= 0 && c < 256) this.ascii[c * this.words + w]! |= bit;
      else {
        let row = this.other.get(c);
        if (!row) {
          row = new Uint32Array(this.words);
          this.other.set(c, row);
        }
        row[w]! |= bit;
      }
    }
  }

  /** The row array of the last `find` and the offset of its first word (-1: `c` is not in the pattern). */
  arr: Uint32Array = PatternMatch.EMPTY;
  off = -1;

  /** Points `arr`/`off` at the match row of `c` (no allocation: this is the inner loop). */
  find(c: number): void {
    if (c >= 0 && c < 256) {
      this.arr = this.ascii;
      this.off = c * this.words;
      return;
    }
    const r = this.other.get(c);
    this.arr = r ?? PatternMatch.EMPTY;
    this.off = r ? 0 : -1;
  }
}

function trim(a: Int32Array, b: Int32Array): [number, number, number] {
  let pre = 0;
  const min = Math.min(a.length, b.length);
  while (pre < min && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < min - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  return [pre, suf, 0];
}

/** The two sequences trimmed of their common prefix and suffix, the shorter (pattern) span first. */
interface Spans {
  pre: number;
  suf: number;
  pa: Int32Array;
  aStart: number;
  aEnd: number;
  pb: Int32Array;
  bStart: number;
  bEnd: number;
}

function spans(a: Int32Array, b: Int32Array): Spans {
  const [pre, suf] = trim(a, b);
  const s = { pre, suf, pa: a, aStart: pre, aEnd: a.length - suf, pb: b, bStart: pre, bEnd: b.length - suf };
  if (s.aEnd - s.aStart <= s.bEnd - s.bStart) return s;
  return { pre, suf, pa: b, aStart: s.bStart, aEnd: s.bEnd, pb: a, bStart: s.aStart, bEnd: s.aEnd };
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Length of the longest common subsequence of `a` and `b`. */
export function lcsLength(a: Int32Array, b: Int32Array): number {
  // Use the shorter sequence as the bit pattern.
  const { pre, suf, pa, aStart, aEnd, pb, bStart, bEnd } = spans(a, b);
  if (aEnd - aStart === 0) return pre + suf;
  const len = aEnd - aStart;
  const pm = new PatternMatch(pa, aStart, aEnd, 30);
  const words = pm.words;
  const MASK = 0x3fffffff;
  // 30-bit words: S + U < 2^31, so every value stays a small integer for the JIT.
  const S = new Int32Array(words).fill(MASK);
  for (let j = bStart; j < bEnd; j++) {
    pm.find(pb[j]!);
    const row = pm.arr;
    const off = pm.off;
    if (off < 0) continue;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const s = S[w]!;
      const u = s & row[off + w]!;
      const sum = s + u + carry;
      carry = sum >>> 30;
      S[w] = (sum | (s & ~u)) & MASK;
    }
  }
  let ones = 0;
  const tail = len % 30;
  for (let w = 0; w < words; w++) {
    let v = ~S[w]! & MASK;
    if (w === words - 1 && tail !== 0) v &= (1 << tail) - 1;
    ones += popcount(v);
  }
  return pre + suf + ones;
}

/** Levenshtein distance (unit costs) between `a` and `b`. */
export function levenshtein(a: Int32Array, b: Int32Array): number {
  const { pa, aStart, aEnd, pb, bStart, bEnd } = spans(a, b);
  const len = aEnd - aStart;
  if (len === 0) return bEnd - bStart;
  const pm = new PatternMatch(pa, aStart, aEnd);
  const words = pm.words;
  const VP = new Uint32Array(words).fill(0xffffffff);
  const VN = new Uint32Array(words);
  const lastBit = 1 << ((len - 1) & 31);
  let dist = len;
  for (let j = bStart; j < bEnd; j++) {
    pm.find(pb[j]!);
    const row = pm.arr;
    const off = pm.off;
    let hpCarry = 1;
    let hnCarry = 0;
    for (let w = 0; w < words; w++) {
      const pmj = off < 0 ? 0 : row[off + w]!;
      const vn = VN[w]!;
      const vp = VP[w]!;
      const x = pmj | hnCarry;
      const d0 = ((((x & vp) >>> 0) + vp) ^ vp) | x | vn;
      let hp = vn | ~(d0 | vp);
      let hn = d0 & vp;
      if (w === words - 1) {
        if (hp & lastBit) dist++;
        if (hn & lastBit) dist--;
      }
      const hpc = hpCarry;
      const hnc = hnCarry;
      hpCarry = hp >>> 31;
      hnCarry = hn >>> 31;
      hp = (hp << 1) | hpc;
      hn = (hn << 1) | hnc;
      VP[w] = (hn | ~(d0 | hp)) >>> 0;
      VN[w] = (hp & d0) >>> 0;
    }
  }
  return dist;
}
