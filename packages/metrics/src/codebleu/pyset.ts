/**
 * The order of `list(set(names))` in CPython 3.11 with `PYTHONHASHSEED=0`, for lists of str: the string hash
 * (SipHash-1-3 over the string's storage — 1, 2 or 4 bytes a code point — with the all-zero key that seed 0
 * gives) and the set's open-addressing table (8 slots to start, runs of 10 linear probes then perturbed
 * jumps, grown to 4 × the used count once 60% full), read out slot by slot. The reference's dataflow merges
 * name lists this way, so its score depends on the names' hashes; under seed 0 this reproduces it.
 */

const M64 = (1n << 64n) - 1n;

function rotl(x: bigint, b: bigint): bigint {
  return ((x << b) | (x >> (64n - b))) & M64;
}

/** The string's storage as CPython keeps it: Latin-1, UCS-2 or UCS-4 (little-endian), by its widest code point. */
function storage(s: string): Uint8Array {
  const cps: number[] = [];
  let max = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    cps.push(c);
    if (c > max) max = c;
  }
  const kind = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
  const out = new Uint8Array(cps.length * kind);
  cps.forEach((c, i) => {
    for (let k = 0; k < kind; k++) out[i * kind + k] = (c >>> (8 * k)) & 0xff;
  });
  return out;
}

/** SipHash-1-3 with the all-zero key, as `hash(str)` under `PYTHONHASHSEED=0` (a signed 64-bit value). */
export function pyStrHash(s: string): bigint {
  if (s.length === 0) return 0n;
  const src = storage(s);
  let v0 = 0x736f6d6570736575n;
  let v1 = 0x646f72616e646f6dn;
  let v2 = 0x6c7967656e657261n;
  let v3 = 0x7465646279746573n;
  const round = () => {
    v0 = (v0 + v1) & M64;
    v2 = (v2 + v3) & M64;
    v1 = rotl(v1, 13n) ^ v0;
    v3 = rotl(v3, 16n) ^ v2;
    v0 = rotl(v0, 32n);
    v2 = (v2 + v1) & M64;
    v0 = (v0 + v3) & M64;
    v1 = rotl(v1, 17n) ^ v2;
    v3 = rotl(v3, 21n) ^ v0;
    v2 = rotl(v2, 32n);
  };
  const word = (at: number, n: number): bigint => {
    let w = 0n;
    for (let k = n - 1; k >= 0; k--) w = (w << 8n) | BigInt(src[at + k] as number);
    return w;
  };
  let at = 0;
  for (; src.length - at >= 8; at += 8) {
    const m = word(at, 8);
    v3 ^= m;
    round();
    v0 ^= m;
  }
  const b = ((BigInt(src.length) << 56n) | word(at, src.length - at)) & M64;
  v3 ^= b;
  round();
  v0 ^= b;
  v2 ^= 0xffn;
  round();
  round();
  round();
  const h = BigInt.asIntN(64, v0 ^ v1 ^ v2 ^ v3);
  return h === -1n ? -2n : h;
}

/** A name with its hash: the whole (signed 64-bit) value and its low 32 bits, which pick the first slot. */
interface Hashed {
  key: string;
  hash: bigint;
  lo: number;
}

/** Hashes of names met before (names repeat across a run's texts). */
const hashes = new Map<string, Hashed>();
const HASH_CACHE_LIMIT = 1 << 16;

function hashOf(key: string): Hashed {
  let h = hashes.get(key);
  if (h === undefined) {
    if (hashes.size >= HASH_CACHE_LIMIT) hashes.clear();
    const hash = pyStrHash(key);
    h = { key, hash, lo: Number(BigInt.asUintN(32, hash)) };
    hashes.set(key, h);
  }
  return h;
}

const LINEAR_PROBES = 9;
const PERTURB_SHIFT = 5n;

/** The next start slot after a run of probes from `i` (perturb: the hash as unsigned, shifted each time). */
function jump(i: number, perturb: bigint, mask: number): number {
  return Number((BigInt(i) * 5n + 1n + perturb) & BigInt(mask));
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
    let perturb = -1n;
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
      perturb = (perturb < 0n ? BigInt.asUintN(64, h.hash) : perturb) >> PERTURB_SHIFT;
      i = jump(i, perturb, mask);
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
    let perturb = BigInt.asUintN(64, h.hash);
    for (;;) {
      const run = i + LINEAR_PROBES <= mask ? LINEAR_PROBES : 0;
      for (let j = 0; j <= run; j++) {
        if (slots[i + j] === null) {
          slots[i + j] = h;
          return;
        }
      }
      perturb >>= PERTURB_SHIFT;
      i = jump(i, perturb, mask);
    }
  }
}

/** `list(set(names))` under `PYTHONHASHSEED=0` (CPython 3.11). */
export function pySetList(names: readonly string[]): string[] {
  if (names.length <= 1) return [...names];
  if (names.length === 2 && names[0] === names[1]) return [names[0] as string];
  const t = new PySetTable();
  for (const n of names) t.add(hashOf(n));
  const out: string[] = [];
  for (const h of t.slots) if (h) out.push(h.key);
  return out;
}
