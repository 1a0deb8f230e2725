/**
 * Data-flow graph extraction of codebleu 0.7.1 (`parser/DFG.py`) for Python, Java, JavaScript/TypeScript
 * and Go, rule for rule. Where Python turns `list(set(names))` into a hash-dependent order this port gives
 * CPython's order under `PYTHONHASHSEED=0` (`pyset.ts`), or the order of first occurrence (`fixSetOrder`,
 * which does not depend on the names' spelling). Where the reference would raise (a missing field), this throws and the
 * caller yields an empty graph, as the reference does.
 */
import { type CNode, childByField } from './tree.ts';

/** One DFG edge group: variable `name` at token `idx` comesFrom/computedFrom `names` at `idxs`. */
export interface DfgEntry {
  name: string;
  idx: number;
  rel: 'comesFrom' | 'computedFrom';
  names: string[];
  idxs: number[];
}

/** A token: its position in the token sequence and its (reference-quirked) text. */
export interface TokenInfo {
  idx: number;
  code: string;
}

/** Entries of zero-width tokens by offset (the reference's `index_to_code`, where such spans collide). */
export type TokenIndex = Map<number, TokenInfo>;

/** True for the nodes the reference treats as tokens (`tree_to_token_index`). */
export function isTokenNode(n: CNode): boolean {
  return n.tn;
}

/** Token nodes under `root` in document order (`tree_to_token_index`). */
export function tokenNodes(root: CNode, out: CNode[] = []): CNode[] {
  if (isTokenNode(root)) out.push(root);
  else for (const c of root.children) tokenNodes(c, out);
  return out;
}

/** Too much work (exponential loop re-walks on huge inputs): the graph is given up as empty. */
export class DfgBudgetError extends Error {}

/** One layer of a {@link States}: never written once another States can read it. */
interface Layer {
  map: Map<string, number[]>;
  below: Layer | null;
  depth: number;
}

/** Layers a lookup may pass through before a write flattens them into one map. */
const MAX_LAYERS = 8;

/**
 * The reference's `states` dict (variable → defining token idxs), which every call copies on entry. Copies
 * share their layers; a write to a shared States puts a new small layer on top instead of copying every
 * entry (the walk threads one States through siblings, copying it at each call: copying whole maps made it
 * quadratic in the number of variables).
 */
export class States {
  private top: Layer;
  /** `top` is this States' own (nobody else reads it). */
  private owned: boolean;
  constructor(map: Map<string, number[]> = new Map()) {
    this.top = { map, below: null, depth: 1 };
    this.owned = true;
  }
  /** A logically independent copy (`dict.copy()`). */
  copy(): States {
    this.owned = false;
    const c = new States(EMPTY);
    c.top = this.top;
    c.owned = false;
    return c;
  }
  get(k: string): number[] | undefined {
    for (let l: Layer | null = this.top; l !== null; l = l.below) {
      const v = l.map.get(k);
      if (v !== undefined) return v;
    }
    return undefined;
  }
  set(k: string, v: number[]): void {
    if (!this.owned) {
      this.top =
        this.top.depth >= MAX_LAYERS
          ? { map: this.flat(), below: null, depth: 1 }
          : { map: new Map(), below: this.top, depth: this.top.depth + 1 };
      this.owned = true;
    }
    this.top.map.set(k, v);
  }
  /** True when both read the same layers (so they hold equal entries). */
  sharesMap(other: States): boolean {
    return this.top === other.top;
  }
  /** Every variable with its current idxs (each once). */
  entries(): IterableIterator<[string, number[]]> {
    return (this.top.below === null ? this.top.map : this.flat()).entries();
  }
  /** All layers in one new map, upper layers winning. */
  private flat(): Map<string, number[]> {
    const layers: Layer[] = [];
    for (let l: Layer | null = this.top; l !== null; l = l.below) layers.push(l);
    const out = new Map<string, number[]>();
    for (let i = layers.length - 1; i >= 0; i--) for (const [k, v] of (layers[i] as Layer).map) out.set(k, v);
    return out;
  }
}

/** The map of a States about to take another's layers (never written: the copy is not owned). */
const EMPTY = new Map<string, number[]>();

interface Ctx {
  index: TokenIndex;
  budget: { left: number };
  /** `list(set(a + b))`: CPython's order under seed 0 (`pySetUnion`), or first occurrence. */
  setList: (a: readonly string[], b: readonly string[]) => string[];
}

function lookup(ctx: Ctx, n: CNode | null): TokenInfo {
  if (!n) throw new TypeError('node is None');
  const t = n.si === n.ei ? ctx.index.get(n.si) : n.tok;
  if (!t) throw new Error('span not in index_to_code');
  return t;
}

/** `tree_to_variable_index`: token nodes under `n` whose text differs from their type. */
function varTokens(ctx: Ctx, n: CNode | null, out: TokenInfo[] = []): TokenInfo[] {
  if (!n) throw new TypeError("'NoneType' object has no attribute 'children'");
  if (isTokenNode(n)) {
    const t = lookup(ctx, n);
    if (n.type !== t.code) out.push(t);
  } else for (const c of n.children) varTokens(ctx, c, out);
  return out;
}

const byIdx = (a: DfgEntry, b: DfgEntry) => a.idx - b.idx;

/** Python's `sorted(dfg, key=idx)` (stable), skipping the sort when the list is already in order. */
function sortByIdx(dfg: DfgEntry[]): DfgEntry[] {
  for (let i = 1; i < dfg.length; i++) {
    if ((dfg[i - 1] as DfgEntry).idx > (dfg[i] as DfgEntry).idx) return dfg.sort(byIdx);
  }
  return dfg;
}

/** `a += b` without spreading (a spread of a large array overflows the call stack). */
function append(a: DfgEntry[], b: readonly DfgEntry[]): void {
  for (const x of b) a.push(x);
}

function uniq<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

/** The loop merge: entries with equal (name, idx, relation) unite their names (`ctx.setList`) and idxs. */
function mergeLoop(dfg: DfgEntry[], ctx: Ctx): DfgEntry[] {
  const dic = new Map<string, DfgEntry>();
  for (const x of dfg) {
    const key = `${x.name}\0${x.idx}\0${x.rel}`;
    const prev = dic.get(key);
    if (!prev) dic.set(key, { ...x });
    else {
      prev.names = ctx.setList(prev.names, x.names);
      prev.idxs = uniq([...prev.idxs, ...x.idxs]).sort((a, b) => a - b);
    }
  }
  return sortByIdx([...dic.values()]);
}

/** Union of two ascending duplicate-free lists, ascending (what `sorted(set(a + b))` gives). */
function unionSorted(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x < y) {
      out.push(x);
      i++;
    } else if (y < x) {
      out.push(y);
      j++;
    } else {
      out.push(x);
      i++;
      j++;
    }
  }
  while (i < a.length) out.push(a[i++] as number);
  while (j < b.length) out.push(b[j++] as number);
  return out;
}

/**
 * The if-statement merge: each variable's definitions from every branch, `sorted(set(...))`. State lists are
 * always ascending and duplicate-free (singletons or earlier merges) and never mutated, so equal lists are
 * shared and lists merge pairwise.
 */
function mergeStates(list: States[]): States {
  const first = list[0];
  if (first && list.every((s) => s.sharesMap(first))) return first.copy();
  const merged = new Map<string, number[]>();
  for (const dic of list) {
    for (const [k, v] of dic.entries()) {
      const cur = merged.get(k);
      if (cur === undefined) merged.set(k, v);
      else if (cur !== v) merged.set(k, unionSorted(cur, v));
    }
  }
  return new States(merged);
}

function tick(ctx: Ctx): void {
  if (--ctx.budget.left < 0) throw new DfgBudgetError('data-flow extraction exceeded its work budget');
}

/** The leaf rule shared by every language. */
function leaf(ctx: Ctx, node: CNode, states: States): [DfgEntry[], States] {
  const { idx, code } = lookup(ctx, node);
  if (node.type === code) return [[], states];
  const prev = states.get(code);
  // state lists are never mutated (merges build new ones), so the entry shares it
  if (prev) return [[{ name: code, idx, rel: 'comesFrom', names: [code], idxs: prev }], states];
  if (node.type === 'identifier') states.set(code, [idx]);
  return [[{ name: code, idx, rel: 'comesFrom', names: [], idxs: [] }], states];
}

type Walk = (node: CNode, states: States) => [DfgEntry[], States];

/** The def rule (`default_parameter` / `variable_declarator` / `var_spec`). */
function defRule(ctx: Ctx, walk: Walk, node: CNode, states: States): [DfgEntry[], States] {
  const name = childByField(node, 'name');
  const value = childByField(node, 'value');
  const dfg: DfgEntry[] = [];
  if (!value) {
    for (const t of varTokens(ctx, name)) {
      dfg.push({ name: t.code, idx: t.idx, rel: 'comesFrom', names: [], idxs: [] });
      states.set(t.code, [t.idx]);
    }
    return [sortByIdx(dfg), states];
  }
  const names = varTokens(ctx, name);
  const values = varTokens(ctx, value);
  const [temp, s2] = walk(value, states);
  append(dfg, temp);
  for (const n of names) {
    for (const v of values)
      dfg.push({ name: n.code, idx: n.idx, rel: 'comesFrom', names: [v.code], idxs: [v.idx] });
    s2.set(n.code, [n.idx]);
  }
  return [sortByIdx(dfg), s2];
}

/** Each left token × each right token, computedFrom (java/js/go assignment, java enhanced-for). */
function pairwise(left: TokenInfo[], right: TokenInfo[], states: States, dfg: DfgEntry[]): void {
  for (const l of left) {
    for (const r of right)
      dfg.push({ name: l.code, idx: l.idx, rel: 'computedFrom', names: [r.code], idxs: [r.idx] });
    states.set(l.code, [l.idx]);
  }
}

/** Runs the walk over each child in order, threading the states. */
function seq(walk: Walk, nodes: readonly CNode[], states: States, dfg: DfgEntry[]): States {
  let s = states;
  for (const c of nodes) {
    const [temp, s2] = walk(c, s);
    append(dfg, temp);
    s = s2;
  }
  return s;
}

export type { Walk };
export {
  append,
  byIdx,
  type Ctx,
  defRule,
  leaf,
  lookup,
  mergeLoop,
  mergeStates,
  pairwise,
  seq,
  sortByIdx,
  tick,
  varTokens,
};
