/**
 * Dataflow component: `get_data_flow` (token texts, walker, filter and merge), `normalize_dataflow`, and the
 * per-pair multiset match of `dataflow_match.py`.
 */
import { type Ctx, type DfgEntry, States, sortByIdx, type TokenIndex, tokenNodes, type Walk } from './dfg.ts';
import { goWalker, javascriptWalker, javaWalker, pythonWalker } from './dfg-langs.ts';
import { pySetUnion } from './pyset.ts';
import type { CNode, FlatTree } from './tree.ts';
import type { CodeLang } from './types.ts';

/**
 * Trees deeper than this make the reference hit Python's recursion limit (1000 frames) and yield an empty
 * graph; the port does the same.
 */
export const PY_MAX_TREE_DEPTH = 990;
/**
 * Walker steps allowed per node of the tree (plus a fixed allowance): the reference walks every loop body
 * twice at each nesting level, which is exponential; past this budget the graph is given up as empty.
 * 64 per node covers six fully nested loops.
 */
export const DFG_STEPS_PER_NODE = 64;

const ASCII = /^[\x00-\x7f]*$/;
const decoder = new TextDecoder();

/**
 * Token texts as the reference computes them: `code.split('\n')[row][start_col:end_col]` where the columns
 * are UTF-8 byte offsets applied to a code-point string (garbled after non-ASCII text unless `fix`, which
 * decodes the token's own bytes). Multi-line tokens lose their newlines either way.
 */
function tokenTexter(code: string, bytes: Uint8Array, fix: boolean): (n: CNode) => string {
  if (ASCII.test(code)) {
    return (n) => {
      const s = code.slice(n.si, n.ei);
      return s.includes('\n') ? s.replaceAll('\n', '') : s;
    };
  }
  if (fix) {
    return (n) => {
      const s = decoder.decode(bytes.subarray(n.si, n.ei));
      return s.includes('\n') ? s.replaceAll('\n', '') : s;
    };
  }
  const lineStartBytes = [0];
  for (let i = bytes.indexOf(10); i >= 0; i = bytes.indexOf(10, i + 1)) lineStartBytes.push(i + 1);
  const lines = code.split('\n');
  const lineCps = new Map<number, string[]>();
  const line = (row: number): string[] => {
    let cps = lineCps.get(row);
    if (!cps) {
      cps = Array.from(lines[row] ?? '');
      lineCps.set(row, cps);
    }
    return cps;
  };
  const rowOf = (byte: number): number => {
    let lo = 0;
    let hi = lineStartBytes.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((lineStartBytes[mid] as number) <= byte) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  return (n) => {
    const sr = rowOf(n.si);
    const er = rowOf(n.ei);
    const sc = n.si - (lineStartBytes[sr] as number);
    const ec = n.ei - (lineStartBytes[er] as number);
    if (sr === er) return line(sr).slice(sc, ec).join('');
    let s = line(sr).slice(sc).join('');
    for (let r = sr + 1; r < er; r++) s += line(r).join('');
    return s + line(er).slice(0, ec).join('');
  };
}

function walkerFor(lang: CodeLang, ctx: Ctx, fixRules: boolean): Walk {
  if (lang === 'python') return pythonWalker(ctx);
  if (lang === 'java') return javaWalker(ctx);
  if (lang === 'go') return goWalker(ctx, fixRules);
  return javascriptWalker(ctx, fixRules);
}

/** `[...new Set([...a, ...b])]` (first-seen order) without the intermediate arrays for short lists. */
function unionInOrder<T>(a: readonly T[], b: readonly T[]): T[] {
  if (a.length + b.length > 32) return [...new Set([...a, ...b])];
  const out: T[] = [];
  for (const x of a) if (!out.includes(x)) out.push(x);
  for (const x of b) if (!out.includes(x)) out.push(x);
  return out;
}

/** `[...new Set([...a, ...b])]`: the order of first occurrence. */
function firstSeen(a: readonly string[], b: readonly string[]): string[] {
  return a.length + b.length <= 1 ? [...a, ...b] : unionInOrder(a, b);
}

/** `get_data_flow`: the merged DFG of one (comment-stripped) source string. */
export function extractDataflow(
  code: string,
  bytes: Uint8Array,
  flat: FlatTree,
  lang: CodeLang,
  opts: { fixByteColumns?: boolean; fixDfgRules?: boolean; fixSetOrder?: boolean } = {},
): DfgEntry[] {
  if (flat.depth > PY_MAX_TREE_DEPTH) return [];
  const text = tokenTexter(code, bytes, opts.fixByteColumns === true);
  // index_to_code is keyed by (start, end) with the last token winning; only zero-width tokens (MISSING
  // nodes) can share a span, so the others carry their entry on the node itself
  const index: TokenIndex = new Map();
  const tokens = tokenNodes(flat.root);
  for (let idx = 0; idx < tokens.length; idx++) {
    const n = tokens[idx] as CNode;
    const info = { idx, code: text(n) };
    if (n.si === n.ei) index.set(n.si, info);
    else n.tok = info;
  }
  const setList = opts.fixSetOrder === true ? firstSeen : pySetUnion;
  let dfg: DfgEntry[];
  try {
    const ctx: Ctx = { index, budget: { left: 1_000_000 + DFG_STEPS_PER_NODE * flat.size }, setList };
    dfg = walkerFor(lang, ctx, opts.fixDfgRules === true)(flat.root, new States())[0];
  } catch {
    // the reference catches every exception of the walker (missing fields, recursion) and uses []
    dfg = [];
  }
  dfg = sortByIdx(dfg);
  return mergeByPosition(dfg, tokens.length, setList);
}

/**
 * The reference's final filter and merge, in one pass over the sorted graph: entries of a position that no
 * edge touches go, and the entries of one position (adjacent once sorted) fold into the first one's slot,
 * `list(set(...))` of the names step by step as the reference does (the set order depends on it). The
 * folded entry is a fresh object, so the walker's entries are never changed.
 */
function mergeByPosition(
  dfg: readonly DfgEntry[],
  tokens: number,
  setList: (a: readonly string[], b: readonly string[]) => string[],
): DfgEntry[] {
  const keep = new Uint8Array(tokens);
  for (const d of dfg) {
    if (d.idxs.length > 0) keep[d.idx] = 1;
    for (const x of d.idxs) keep[x] = 1;
  }
  const merged: DfgEntry[] = [];
  let last: DfgEntry | undefined;
  let fresh = false; // `last` is this function's own object
  for (const d of dfg) {
    if (!keep[d.idx]) continue;
    if (last === undefined || last.idx !== d.idx) {
      last = d;
      fresh = false;
      merged.push(d);
      continue;
    }
    const names = setList(last.names, d.names);
    const idxs = unionInOrder(last.idxs, d.idxs);
    if (fresh) {
      last.name = d.name;
      last.rel = d.rel;
      last.names = names;
      last.idxs = idxs;
    } else {
      last = { name: d.name, idx: d.idx, rel: d.rel, names, idxs };
      merged[merged.length - 1] = last;
      fresh = true;
    }
  }
  return merged;
}

/** `normalize_dataflow`: names become var_0, var_1… in order of appearance; positions are dropped. */
export function normalizeDataflow(dfg: readonly DfgEntry[]): string[] {
  const names = new Map<string, string>();
  const norm = (n: string) => {
    let v = names.get(n);
    if (v === undefined) {
      v = `var_${names.size}`;
      names.set(n, v);
    }
    return v;
  };
  return dfg.map((d) => {
    const parents = d.names.map(norm);
    return `${norm(d.name)}\0${d.rel}\0${parents.join(',')}`;
  });
}

/** Matches of one (candidate, reference) pair: multiset intersection size and the reference count. */
export function matchDataflow(cand: readonly string[], ref: readonly string[]): [number, number] {
  const pool = new Map<string, number>();
  for (const c of cand) pool.set(c, (pool.get(c) ?? 0) + 1);
  let match = 0;
  for (const r of ref) {
    const k = pool.get(r) ?? 0;
    if (k > 0) {
      match++;
      pool.set(r, k - 1);
    }
  }
  return [match, ref.length];
}
