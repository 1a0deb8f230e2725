/**
 * The syntax-match subtrees of one text (the reference's `get_all_sub_trees`: the root and every node with
 * children), each as its S-expression `str(node)`. Most are spans of the root's S-expression, and the sum of
 * their lengths grows with nodes × depth; so each subtree is held as a span plus a hash key computed in O(1)
 * from prefix hashes of the root's string, and matching compares keys, then the strings of the subtrees whose
 * keys are equal (so a hash collision never changes a count).
 */

/** Odd multiplier of the polynomial hash (mod 2^32). */
const BASE = 0x2f0a3b1d | 1;
/** Lengths fold into the low bits of a key: 53 bits in all, exact as a double. */
const LEN_BITS = 2 ** 21;

let prefix = new Int32Array(1 << 14);
let powers = new Int32Array(1 << 14);
let powersLen = 1;
powers[0] = 1;

function ensurePowers(n: number): void {
  if (powers.length < n + 1) {
    let c = powers.length;
    while (c < n + 1) c *= 2;
    const p = new Int32Array(c);
    p.set(powers.subarray(0, powersLen));
    powers = p;
  }
  for (let i = powersLen; i <= n; i++) powers[i] = Math.imul(powers[i - 1] as number, BASE);
  if (n + 1 > powersLen) powersLen = n + 1;
}

/** The key of a string of `len` code units whose polynomial hash is `h`. */
function key(h: number, len: number): number {
  return (h >>> 0) * LEN_BITS + (len % LEN_BITS);
}

/** The key of a whole string (the same as the key of an equal span of any other string). */
export function stringKey(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, BASE) + s.charCodeAt(i)) | 0;
  return key(h, s.length);
}

export class Subtrees {
  private constructor(
    /** One key per subtree, in the reference's order. */
    readonly keys: Float64Array,
    private readonly root: string,
    /** Span of subtree `i` in `root`, or start −1 for a string of its own (in `own`). */
    private readonly starts: Int32Array,
    private readonly ends: Int32Array,
    private readonly own: Map<number, string> | null,
  ) {}

  get length(): number {
    return this.keys.length;
  }

  /** `str(node)` of subtree `i`. */
  text(i: number): string {
    const s = this.starts[i] as number;
    if (s >= 0) return this.root.slice(s, this.ends[i] as number);
    return this.own?.get(i) ?? '';
  }

  /** Estimated bytes held (for the cache's budget). */
  get bytes(): number {
    let n = 2 * this.root.length + 16 * this.keys.length + 64;
    if (this.own) for (const s of this.own.values()) n += 2 * s.length + 32;
    return n;
  }

  /**
   * Subtrees given as spans of `root` (`starts[i]`, `ends[i]`) or, where `starts[i]` is −1, as strings of
   * their own (`own.get(i)`). The arrays are kept: pass copies of reused buffers.
   */
  static fromSpans(
    root: string,
    starts: Int32Array,
    ends: Int32Array,
    own: Map<number, string> | null,
  ): Subtrees {
    const n = root.length;
    if (prefix.length < n + 1) {
      let c = prefix.length;
      while (c < n + 1) c *= 2;
      prefix = new Int32Array(c);
    }
    ensurePowers(n);
    let h = 0;
    prefix[0] = 0;
    for (let i = 0; i < n; i++) {
      h = (Math.imul(h, BASE) + root.charCodeAt(i)) | 0;
      prefix[i + 1] = h;
    }
    const keys = new Float64Array(starts.length);
    for (let i = 0; i < starts.length; i++) {
      const s = starts[i] as number;
      if (s < 0) {
        keys[i] = stringKey(own?.get(i) ?? '');
        continue;
      }
      const e = ends[i] as number;
      const len = e - s;
      keys[i] = key((prefix[e] as number) - Math.imul(prefix[s] as number, powers[len] as number), len);
    }
    return new Subtrees(keys, root, starts, ends, own);
  }

  /** Subtrees given as strings. */
  static fromStrings(list: readonly string[]): Subtrees {
    const own = new Map<number, string>();
    const keys = new Float64Array(list.length);
    for (let i = 0; i < list.length; i++) {
      const s = list[i] as string;
      own.set(i, s);
      keys[i] = stringKey(s);
    }
    return new Subtrees(keys, '', new Int32Array(list.length).fill(-1), new Int32Array(list.length), own);
  }
}

/**
 * How many subtrees of `of` have an S-expression equal to some subtree of `within` (the reference counts
 * `sub_tree in cand_sexps` over the reference's list, repeats included).
 */
export function countMatches(of: Subtrees, within: Subtrees): number {
  const first = new Map<number, number>();
  const wk = within.keys;
  for (let i = 0; i < wk.length; i++) if (!first.has(wk[i] as number)) first.set(wk[i] as number, i);
  let count = 0;
  const ok = of.keys;
  for (let j = 0; j < ok.length; j++) {
    const k = ok[j] as number;
    const i = first.get(k);
    if (i === undefined) continue;
    const t = of.text(j);
    if (within.text(i) === t) {
      count++;
      continue;
    }
    // a hash collision: any other subtree with this key may still be equal
    for (let m = i + 1; m < wk.length; m++) {
      if (wk[m] === k && within.text(m) === t) {
        count++;
        break;
      }
    }
  }
  return count;
}
