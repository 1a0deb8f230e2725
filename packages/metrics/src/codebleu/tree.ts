/**
 * A plain-JS copy of a tree-sitter tree (one cursor walk over the wasm tree), plus the S-expression of every
 * subtree as `str(node)` prints it in the reference (tree-sitter's `ts_node_string`).
 */
import {
  type FlatSyntaxTree,
  fastCursor,
  type ParsedCode,
  readTree,
  sexpSpans,
  TreeTooDeepError,
} from '@faun/syntax';
import { Subtrees } from './subtrees.ts';

/** One node: the fields CodeBLEU reads (offsets in UTF-8 bytes, as the reference's tree-sitter has them). */
export interface CNode {
  type: string;
  named: boolean;
  missing: boolean;
  /** Field name under the parent (recorded only below the parent types the caller asks for), or null. */
  field: string | null;
  children: CNode[];
  /** UTF-8 byte start/end offset in the parsed text. */
  si: number;
  ei: number;
  /** `str(node)` (set for visible nodes and nodes with children). */
  sexp?: string;
  /** A token for the dataflow component (`tree_to_token_index`): a leaf or a string literal, not a comment. */
  tn: boolean;
  /** Token index and text, for token nodes (set by the dataflow component). */
  tok?: { idx: number; code: string };
}

const STRING_TYPES = new Set(['string_literal', 'string', 'character_literal']);

function markTokenNodes(nodes: readonly CNode[]): void {
  for (const n of nodes) n.tn = (n.children.length === 0 || STRING_TYPES.has(n.type)) && n.type !== 'comment';
}

/** The first child under field `name` (tree-sitter `child_by_field_name`), or null. */
export function childByField(node: CNode, name: string): CNode | null {
  for (const c of node.children) if (c.field === name) return c;
  return null;
}

/** Result of {@link flattenTree}: the root and the maximum depth (root = 1). */
export interface FlatTree {
  root: CNode;
  depth: number;
  /** Number of nodes. */
  size: number;
  /** `str(node)` for the root and every node with at least one child (the syntax-match subtrees). */
  subtrees: Subtrees;
}

interface TypeTable {
  names: string[];
  named: boolean[];
}
const typeTables = new WeakMap<object, TypeTable>();

function typeTable(language: ReturnType<ParsedCode['tree']['getLanguage']>): TypeTable {
  let t = typeTables.get(language);
  if (!t) {
    const names: string[] = [];
    const named: boolean[] = [];
    for (let id = 0; id < language.nodeTypeCount; id++) {
      names.push(language.nodeTypeForId(id) ?? 'ERROR');
      named.push(language.nodeTypeIsNamed(id));
    }
    t = { names, named };
    typeTables.set(language, t);
  }
  return t;
}

/**
 * Copies the tree into {@link CNode}s and collects the S-expressions of the syntax-match subtrees. Field names
 * are kept only for children of `fieldParents` types. Reads the tree from the runtime's memory in one pass
 * (`readTree`); trees too deep for that take the cursor walk.
 */
export function flattenTree(parsed: ParsedCode, fieldParents: ReadonlySet<string> = new Set()): FlatTree {
  let flat: FlatSyntaxTree;
  try {
    flat = readTree(parsed);
  } catch (e) {
    if (e instanceof TreeTooDeepError) return flattenTreeByCursor(parsed, fieldParents);
    throw e;
  }
  return fromFlat(flat, fieldParents);
}

/** The same from a tree already read into flat arrays (`readTree`, or `parseFlat` on the native path). */
export function flattenFlat(flat: FlatSyntaxTree, fieldParents: ReadonlySet<string> = new Set()): FlatTree {
  return fromFlat(flat, fieldParents);
}

/** Children list of every leaf (never mutated). */
const NO_CHILDREN: CNode[] = [];

/** Per-node work arrays of {@link fromFlat}, reused from one tree to the next (grown as needed). */
let scratch = newScratch(1024);

function newScratch(cap: number) {
  return {
    cap,
    childCount: new Int32Array(cap),
    fill: new Int32Array(cap),
    withField: new Uint8Array(cap),
    starts: new Int32Array(cap),
    ends: new Int32Array(cap),
  };
}

function fromFlat(f: FlatSyntaxTree, fieldParents: ReadonlySet<string>): FlatTree {
  const { type, named, missing, field, fieldNames, start, end, parent } = f;
  const n = f.count;
  if (scratch.cap < n) scratch = newScratch(Math.max(n, 2 * scratch.cap));
  const { childCount, fill, withField, starts, ends } = scratch;
  childCount.fill(0, 0, n);
  fill.fill(0, 0, n);
  withField.fill(0, 0, n);
  for (let i = 1; i < n; i++)
    childCount[parent[i] as number] = (childCount[parent[i] as number] as number) + 1;
  const nodes: CNode[] = new Array(n);
  // the subtrees: the root's whole string, then each node with children (a span, or a string of its own)
  const { spanStart, spanEnd } = f;
  starts[0] = 0;
  let own: Map<number, string> | null = null;
  let m = 1;
  ends[0] = f.rootString.length;
  for (let i = 0; i < n; i++) {
    const t = type[i] as string;
    const k = childCount[i] as number;
    const node: CNode = {
      type: t,
      named: named[i] === 1,
      missing: missing[i] === 1,
      field: null,
      children: k === 0 ? NO_CHILDREN : new Array(k),
      si: start[i] as number,
      ei: end[i] as number,
      tn: (k === 0 || STRING_TYPES.has(t)) && t !== 'comment',
    };
    nodes[i] = node;
    if (k > 0 && i > 0) {
      const s = spanStart[i] as number;
      starts[m] = s;
      ends[m] = s >= 0 ? (spanEnd[i] as number) : -1;
      if (s < 0) (own ??= new Map()).set(m, f.nodeString(i));
      m++;
    }
    // only a node with children is read back as a parent
    if (k > 0 && fieldParents.has(t)) withField[i] = 1;
    if (i > 0) {
      const pi = parent[i] as number;
      if (withField[pi]) node.field = fieldNames[field[i] as number] ?? null;
      const at = fill[pi] as number;
      (nodes[pi] as CNode).children[at] = node;
      fill[pi] = at + 1;
    }
  }
  const subtrees = Subtrees.fromSpans(f.rootString, starts.slice(0, m), ends.slice(0, m), own);
  return { root: nodes[0] as CNode, depth: f.depth, size: n, subtrees };
}

/** The S-expressions of `root` and of every node below it with children (depth first, as the reference lists them). */
function innerSexps(root: CNode): string[] {
  const sexps: string[] = [root.sexp as string];
  const todo: CNode[] = [root];
  while (todo.length > 0) {
    const n = todo.pop() as CNode;
    for (const c of n.children) {
      if (c.children.length > 0) {
        sexps.push(c.sexp as string);
        todo.push(c);
      }
    }
  }
  return sexps;
}

/**
 * The same from a cursor walk: the root's string is printed once by tree-sitter and each visible node's
 * string is a balanced span of it. Field names are read only for children of `fieldParents` types.
 */
export function flattenTreeByCursor(
  parsed: ParsedCode,
  fieldParents: ReadonlySet<string> = new Set(),
): FlatTree {
  const language = parsed.tree.getLanguage();
  const { names, named } = typeTable(language);
  const fields = (language as unknown as { fields: (string | null)[] }).fields;
  const cursor = fastCursor(parsed);
  try {
    let rootSexp: string | null = null;
    try {
      rootSexp = cursor.nodeString();
    } catch (e) {
      if (!(e instanceof TreeTooDeepError)) throw e;
    }
    const hasMissing = rootSexp?.includes('(MISSING ') === true;
    let maxDepth = 1;
    let size = 1;
    const all: CNode[] = [];
    const make = (field: boolean): CNode => {
      const id = cursor.typeId();
      const node: CNode = {
        type: names[id] ?? 'ERROR',
        named: named[id] ?? true,
        missing: hasMissing && cursor.isMissing(),
        field: field ? (fields[cursor.fieldId()] ?? null) : null,
        children: [],
        si: cursor.startByte(),
        ei: cursor.endByte(),
        tn: false,
      };
      all.push(node);
      return node;
    };
    const root = make(false);
    const stack: CNode[] = [root];
    const visible: CNode[] = [root];
    // iterative pre-order walk; `stack` holds the ancestors of the cursor's node
    if (cursor.gotoFirstChild()) {
      let parent = root;
      let wantField = fieldParents.has(root.type);
      for (;;) {
        const node = make(wantField);
        size++;
        parent.children.push(node);
        const isVisible = node.named || node.missing;
        if (isVisible) visible.push(node);
        if (cursor.gotoFirstChild()) {
          if (!isVisible) {
            // rare: an anonymous node with children; tree-sitter prints it on its own
            cursor.gotoParent();
            node.sexp = cursor.nodeString();
            cursor.gotoFirstChild();
          }
          stack.push(node);
          if (stack.length + 1 > maxDepth) maxDepth = stack.length + 1;
          parent = node;
          wantField = fieldParents.has(node.type);
          continue;
        }
        let done = false;
        while (!cursor.gotoNextSibling()) {
          cursor.gotoParent();
          stack.pop();
          if (stack.length === 0) {
            done = true;
            break;
          }
        }
        if (done) break;
        parent = stack[stack.length - 1] as CNode;
        wantField = fieldParents.has(parent.type);
      }
    }
    markTokenNodes(all);
    if (rootSexp === null) {
      // deeper than tree-sitter's printer can go (thousands of levels; the reference's str(node) would
      // overflow too): one subtree standing for the whole text, equal only for byte-identical input
      return {
        root,
        depth: maxDepth,
        size,
        subtrees: Subtrees.fromStrings([`(#too-deep ${fnv1a(parsed.bytes)})`]),
      };
    }
    assignSexps(rootSexp, visible, visible.length);
    return { root, depth: maxDepth, size, subtrees: Subtrees.fromStrings(innerSexps(root)) };
  } finally {
    cursor.delete();
  }
}

/**
 * Gives each visible node its span of the root's S-expression. tree-sitter also prints MISSING leaves of
 * hidden tokens (e.g. `(MISSING _newline)`), which the node API does not expose: those spans are skipped.
 */
function assignSexps(rootSexp: string, visible: CNode[], count: number): void {
  const spans = sexpSpanPairs(rootSexp);
  let k = 0;
  let ok = true;
  for (const node of visible) {
    let s = spans[k];
    while (s && rootSexp.startsWith('(MISSING ', s[0]) && !missingMatches(node, rootSexp.slice(s[0], s[1]))) {
      s = spans[++k];
    }
    if (!s) {
      ok = false;
      break;
    }
    node.sexp = rootSexp.slice(s[0], s[1]);
    k++;
  }
  for (; k < spans.length; k++) {
    const s = spans[k] as [number, number];
    if (!rootSexp.startsWith('(MISSING ', s[0])) ok = false;
  }
  if (!ok) throw new Error(`S-expression of ${count} nodes does not split into node spans (${spans.length})`);
}

/** 52-bit FNV-1a of bytes, as hex. */
function fnv1a(bytes: Uint8Array): string {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xfffffffffffffn;
  return h.toString(16);
}

function missingMatches(node: CNode, span: string): boolean {
  return node.missing && span === (node.named ? `(MISSING ${node.type})` : `(MISSING "${node.type}")`);
}

/** Start/end offsets of every parenthesised node of a `ts_node_string` S-expression, in pre-order. */
export function sexpSpanPairs(s: string): [number, number][] {
  const { opens, ends } = sexpSpans(s);
  return opens.map((o, k) => [o, ends[k] as number]);
}
