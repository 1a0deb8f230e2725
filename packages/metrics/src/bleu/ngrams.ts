/**
 * Clipped n-gram counting shared by the BLEU variants. Tokens are interned to small integers per call
 * and n-grams get dense integer ids order by order, so counting uses typed arrays, not maps.
 * @module
 */

/** Token sequences of one hypothesis and its references, interned to ids. */
export interface Interned {
  hyp: Int32Array;
  refs: Int32Array[];
  /** Vocabulary size + 1 (the base of the numeric n-gram keys). */
  base: number;
}

/** Interns the tokens of one hypothesis and its references. */
export function internTokens(hyp: readonly string[], refs: readonly (readonly string[])[]): Interned {
  const dict = new Map<string, number>();
  const conv = (toks: readonly string[]): Int32Array => {
    const out = new Int32Array(toks.length);
    for (let i = 0; i < toks.length; i++) {
      const t = toks[i]!;
      let id = dict.get(t);
      if (id === undefined) {
        id = dict.size + 1;
        dict.set(t, id);
      }
      out[i] = id;
    }
    return out;
  };
  const h = conv(hyp);
  const r = refs.map(conv);
  return { hyp: h, refs: r, base: dict.size + 1 };
}

/** The reference length closest to `hypLen`; ties go to the shorter one. */
export function closestRefLength(refLens: readonly number[], hypLen: number): number {
  let best = -1;
  let bestDiff = Number.POSITIVE_INFINITY;
  for (const r of refLens) {
    const d = Math.abs(r - hypLen);
    if (d < bestDiff || (d === bestDiff && r < best)) {
      best = r;
      bestDiff = d;
    }
  }
  return Math.max(best, 0);
}

/**
 * Clipped matches and totals for orders 1..maxN at once. N-grams get dense ids order by order (the id
 * of an (n+1)-gram interns the pair (id of its n-gram prefix, last token)), so counting uses typed
 * arrays instead of maps. Handles several references (max count merge).
 */
export function clippedAllOrders(
  hyp: Int32Array,
  refs: readonly Int32Array[],
  maxN: number,
  base: number,
): { matches: number[]; totals: number[] } {
  const seqs = [hyp, ...refs];
  let cur: Int32Array[] = seqs.map((s) => s);
  let distinct = base - 1;
  let positions = 0;
  for (const s of seqs) positions += s.length;
  let cap = 16;
  while (cap < 2 * positions + 16) cap <<= 1;
  const mask = cap - 1;
  const keys = new Float64Array(cap);
  const vals = new Int32Array(cap);
  const matches: number[] = [];
  const totals: number[] = [];
  for (let n = 1; n <= maxN; n++) {
    const h = cur[0]!;
    totals.push(h.length);
    if (h.length === 0) {
      matches.push(0);
    } else {
      const hc = new Int32Array(distinct + 1);
      for (let i = 0; i < h.length; i++) hc[h[i]!]!++;
      const rmax = new Int32Array(distinct + 1);
      if (cur.length === 2) {
        const r = cur[1]!;
        for (let i = 0; i < r.length; i++) rmax[r[i]!]!++;
      } else {
        const tmp = new Int32Array(distinct + 1);
        for (let s = 1; s < cur.length; s++) {
          tmp.fill(0);
          const r = cur[s]!;
          for (let i = 0; i < r.length; i++) tmp[r[i]!]!++;
          for (let i = 0; i < r.length; i++) {
            const g = r[i]!;
            if (tmp[g]! > rmax[g]!) rmax[g] = tmp[g]!;
          }
        }
      }
      let m = 0;
      for (let i = 0; i < h.length; i++) {
        const g = h[i]!;
        const c = hc[g]!;
        if (c > 0) {
          const r = rmax[g]!;
          m += Math.min(c, r);
          hc[g] = 0; // count each distinct n-gram once
        }
      }
      matches.push(m);
    }
    if (n === maxN) break;
    // Ids of the (n+1)-grams.
    keys.fill(-1);
    let next = 0;
    cur = cur.map((ids, s) => {
      const toks = seqs[s]!;
      const len = Math.max(ids.length - 1, 0);
      const out = new Int32Array(len);
      for (let i = 0; i < len; i++) {
        const a = ids[i]!;
        const b = toks[i + n]!;
        const key = a * base + b;
        let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
        for (;;) {
          const k = keys[slot]!;
          if (k === key) {
            out[i] = vals[slot]!;
            break;
          }
          if (k === -1) {
            keys[slot] = key;
            vals[slot] = ++next;
            out[i] = next;
            break;
          }
          slot = (slot + 1) & mask;
        }
      }
      return out;
    });
    distinct = next;
  }
  return { matches, totals };
}
