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
 * Clipped matches and totals for orders 1..maxN at once. N-grams get dense ids order by order: the id
 * of an (n+1)-gram interns the pair (id of its n-gram prefix, last token). Only "live" positions are
 * carried to the next order — those whose n-gram occurs on both sides — because an (n+1)-gram can
 * only match when its prefix does; so higher orders cost little. Handles several references.
 */
export function clippedAllOrders(
  hyp: Int32Array,
  refs: readonly Int32Array[],
  maxN: number,
  base: number,
): { matches: number[]; totals: number[] } {
  const seqs = [hyp, ...refs];
  const matches: number[] = [];
  const totals: number[] = [];
  // Live positions and their n-gram ids, per sequence (index 0 = hypothesis).
  let pos: Int32Array[] = seqs.map((s) => Int32Array.from({ length: s.length }, (_, i) => i));
  let ids: Int32Array[] = seqs.map((s) => s);
  let distinct = base;
  let positions = 0;
  for (const s of seqs) positions += s.length;
  let cap = 16;
  while (cap < 2 * positions + 16) cap <<= 1;
  const mask = cap - 1;
  const keys = new Float64Array(cap);
  const vals = new Int32Array(cap);
  for (let n = 1; n <= maxN; n++) {
    totals.push(Math.max(hyp.length - n + 1, 0));
    // Count hypothesis n-grams and the max reference count of each.
    const hc = new Int32Array(distinct + 1);
    const h = ids[0]!;
    for (let i = 0; i < h.length; i++) hc[h[i]!]!++;
    const rmax = new Int32Array(distinct + 1);
    const tmp = refs.length > 1 ? new Int32Array(distinct + 1) : rmax;
    for (let s = 1; s < seqs.length; s++) {
      const r = ids[s]!;
      if (tmp !== rmax) tmp.fill(0);
      for (let i = 0; i < r.length; i++) tmp[r[i]!]!++;
      if (tmp !== rmax)
        for (let i = 0; i < r.length; i++) if (tmp[r[i]!]! > rmax[r[i]!]!) rmax[r[i]!] = tmp[r[i]!]!;
    }
    let m = 0;
    for (let i = 0; i < h.length; i++) {
      const g = h[i]!;
      const c = hc[g]!;
      if (c > 0) {
        const r = rmax[g]!;
        m += Math.min(c, r);
        hc[g] = -c; // counted; keep the sign as "present in the hypothesis"
      }
    }
    matches.push(m);
    if (n === maxN || m === 0) {
      for (let k = n + 1; k <= maxN; k++) {
        totals.push(Math.max(hyp.length - k + 1, 0));
        matches.push(0);
      }
      break;
    }
    // Next order: keep positions whose n-gram occurs on both sides and that can be extended.
    keys.fill(-1);
    let next = 0;
    const nextPos: Int32Array[] = [];
    const nextIds: Int32Array[] = [];
    for (let s = 0; s < seqs.length; s++) {
      const toks = seqs[s]!;
      const p = pos[s]!;
      const id = ids[s]!;
      const op = new Int32Array(p.length);
      const oi = new Int32Array(p.length);
      let k = 0;
      for (let i = 0; i < p.length; i++) {
        const g = id[i]!;
        if (hc[g] === 0 || rmax[g] === 0) continue; // not on both sides
        const at = p[i]!;
        if (at + n >= toks.length) continue;
        const a = g;
        const b = toks[at + n]!;
        const key = a * base + b;
        let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca6b)) & mask;
        let found = 0;
        for (;;) {
          const kk = keys[slot]!;
          if (kk === key) {
            found = vals[slot]!;
            break;
          }
          if (kk === -1) {
            keys[slot] = key;
            vals[slot] = found = ++next;
            break;
          }
          slot = (slot + 1) & mask;
        }
        op[k] = at;
        oi[k++] = found;
      }
      nextPos.push(op.subarray(0, k));
      nextIds.push(oi.subarray(0, k));
    }
    pos = nextPos;
    ids = nextIds;
    distinct = next;
  }
  return { matches, totals };
}
