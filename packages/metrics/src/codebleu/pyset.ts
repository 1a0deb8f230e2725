/**
 * The order of `list(set(names))` in CPython 3.11 with `PYTHONHASHSEED=0`, for lists of str: the string hash
 * (SipHash-1-3 over the string's storage — 1, 2 or 4 bytes a code point — with the all-zero key that seed 0
 * gives) and the set's open-addressing table (8 slots to start, runs of 10 linear probes then perturbed
 * jumps, grown to 4 × the used count once 60% full), read out slot by slot. The reference's dataflow merges
 * name lists this way, so its score depends on the names' hashes; under seed 0 this reproduces it.
 */

/** The string's storage as CPython keeps it: Latin-1, UCS-2 or UCS-4 (little-endian), by its widest code point. */
function storage(s: string): Uint8Array {
  let max = 0;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i) as number;
    if (c > 0xffff) i++;
    if (c > max) max = c;
    n++;
  }
  const kind = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
  const out = new Uint8Array(n * kind);
  let at = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.codePointAt(i) as number;
    if (c > 0xffff) i++;
    for (let k = 0; k < kind; k++) out[at++] = (c >>> (8 * k)) & 0xff;
  }
  return out;
}

/**
 * SipHash's state as 32-bit halves (high, low) of v0…v3: 64-bit additions carry by hand, rotations move
 * bits between the halves (no BigInt on this path).
 */
const V = new Uint32Array(8);

/** v[a] += v[b] (64-bit, modulo 2^64). */
function add(a: number, b: number): void {
  const lo = (V[a + 1] as number) + (V[b + 1] as number);
  V[a] = (V[a] as number) + (V[b] as number) + (lo > 0xffffffff ? 1 : 0);
  V[a + 1] = lo;
}

/** v[a] = rotl(v[a], r) ^ v[x] (0 < r < 32), or with r = 32 the halves swapped. */
function rotXor(a: number, r: number, x: number): void {
  const hi = V[a] as number;
  const lo = V[a + 1] as number;
  if (r === 32) {
    V[a] = lo;
    V[a + 1] = hi;
  } else {
    V[a] = (hi << r) | (lo >>> (32 - r));
    V[a + 1] = (lo << r) | (hi >>> (32 - r));
  }
  if (x >= 0) {
    V[a] = (V[a] as number) ^ (V[x] as number);
    V[a + 1] = (V[a + 1] as number) ^ (V[x + 1] as number);
  }
}

// v0…v3 at 0, 2, 4, 6 (high half first)
function sipRound(): void {
  add(0, 2);
  add(4, 6);
  rotXor(2, 13, 0);
  rotXor(6, 16, 4);
  rotXor(0, 32, -1);
  add(4, 2);
  add(0, 6);
  rotXor(2, 17, 4);
  rotXor(6, 21, 0);
  rotXor(4, 32, -1);
}

/** Little-endian 32-bit word of up to 4 bytes of `src` from `at`. */
function word32(src: Uint8Array, at: number, n: number): number {
  let w = 0;
  for (let k = Math.min(n, 4) - 1; k >= 0; k--) w = (w << 8) | (src[at + k] as number);
  return w >>> 0;
}

/** `hash(str)` under `PYTHONHASHSEED=0` as its two 32-bit halves [high, low] (unsigned). */
function strHash32(s: string): [number, number] {
  if (s.length === 0) return [0, 0];
  const src = storage(s);
  V.set([0x736f6d65, 0x70736575, 0x646f7261, 0x6e646f6d, 0x6c796765, 0x6e657261, 0x74656462, 0x79746573]);
  let at = 0;
  const mix = (hi: number, lo: number) => {
    V[6] = (V[6] as number) ^ hi;
    V[7] = (V[7] as number) ^ lo;
    sipRound();
    V[0] = (V[0] as number) ^ hi;
    V[1] = (V[1] as number) ^ lo;
  };
  for (; src.length - at >= 8; at += 8) mix(word32(src, at + 4, 4), word32(src, at, 4));
  const left = src.length - at;
  const lo = word32(src, at, left);
  const hi = (left > 4 ? word32(src, at + 4, left - 4) : 0) | ((src.length & 0xff) << 24);
  mix(hi >>> 0, lo);
  V[5] = (V[5] as number) ^ 0xff;
  sipRound();
  sipRound();
  sipRound();
  const h = ((V[0] as number) ^ (V[2] as number) ^ (V[4] as number) ^ (V[6] as number)) >>> 0;
  const l = ((V[1] as number) ^ (V[3] as number) ^ (V[5] as number) ^ (V[7] as number)) >>> 0;
  // -1 is reserved for errors: CPython returns -2 instead
  return h === 0xffffffff && l === 0xffffffff ? [h, 0xfffffffe] : [h, l];
}

/** SipHash-1-3 with the all-zero key, as `hash(str)` under `PYTHONHASHSEED=0` (a signed 64-bit value). */
export function pyStrHash(s: string): bigint {
  const [hi, lo] = strHash32(s);
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

/** A name with its hash's two 32-bit halves (unsigned); the low one picks the first slot. */
interface Hashed {
  key: string;
  hi: number;
  lo: number;
}

/** Hashes of names met before (names repeat across a run's texts). */
const hashes = new Map<string, Hashed>();
const HASH_CACHE_LIMIT = 1 << 16;

function hashOf(key: string): Hashed {
  let h = hashes.get(key);
  if (h === undefined) {
    if (hashes.size >= HASH_CACHE_LIMIT) hashes.clear();
    const [hi, lo] = strHash32(key);
    h = { key, hi, lo };
    hashes.set(key, h);
  }
  return h;
}

const LINEAR_PROBES = 9;
/**
 * The probe sequence after each run of linear probes: perturb (the hash as an unsigned 64-bit value) shifts
 * right by 5 and the next start is `(i * 5 + 1 + perturb) & mask`; a mask below 2^31 needs only perturb's low
 * half, kept with its high half as two numbers.
 */
class Perturb {
  hi: number;
  lo: number;
  constructor(h: Hashed) {
    this.hi = h.hi;
    this.lo = h.lo;
  }
  next(i: number, mask: number): number {
    this.lo = ((this.lo >>> 5) | (this.hi << 27)) >>> 0;
    this.hi >>>= 5;
    return (i * 5 + 1 + this.lo) & mask;
  }
}

/** A CPython set table of str keys (no deletions, so no dummy slots). */
class PySetTable {
  slots: (Hashed | null)[] = new Array(8).fill(null);
  mask = 7;
  fill = 0;

  /** `set_add_entry` (3.11). */
  add(h: Hashed): void {
    const { slots, mask } = this;
    let i = h.lo & mask;
    const perturb = new Perturb(h);
    for (;;) {
      let probes = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
      let e = i;
      do {
        const k = slots[e];
        if (k === null || k === undefined) {
          slots[e] = h;
          this.fill++;
          if (this.fill * 5 >= mask * 3) this.resize(this.fill > 50000 ? this.fill * 2 : this.fill * 4);
          return;
        }
        if (k.key === h.key) return;
        e++;
      } while (probes-- > 0);
      i = perturb.next(i, mask);
    }
  }

  /** `set_table_resize`: the smallest power of two above `minused`, entries re-placed in slot order. */
  private resize(minused: number): void {
    let size = 8;
    while (size <= minused) size <<= 1;
    const old = this.slots;
    this.slots = new Array(size).fill(null);
    this.mask = size - 1;
    for (const h of old) if (h) this.insertClean(h);
  }

  /** `set_insert_clean`. */
  private insertClean(h: Hashed): void {
    const { slots, mask } = this;
    let i = h.lo & mask;
    const perturb = new Perturb(h);
    for (;;) {
      const run = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
      for (let j = 0; j <= run; j++) {
        if (slots[i + j] === null) {
          slots[i + j] = h;
          return;
        }
      }
      i = perturb.next(i, mask);
    }
  }
}

/** `list(set(names))` under `PYTHONHASHSEED=0` (CPython 3.11). */
export function pySetList(names: readonly string[]): string[] {
  return pySetUnion(names, []);
}

/** `list(set(a + b))` under `PYTHONHASHSEED=0` (CPython 3.11), without building `a + b`. */
export function pySetUnion(a: readonly string[], b: readonly string[]): string[] {
  const n = a.length + b.length;
  if (n <= 1) return a.length ? [a[0] as string] : b.length ? [b[0] as string] : [];
  if (n === 2) {
    const x = (a.length ? a[0] : b[0]) as string;
    const y = (b.length ? b[b.length - 1] : a[1]) as string;
    if (x === y) return [x];
  }
  const t = new PySetTable();
  for (const k of a) t.add(hashOf(k));
  for (const k of b) t.add(hashOf(k));
  const out: string[] = [];
  for (const h of t.slots) if (h) out.push(h.key);
  return out;
}
