/**
 * Reads a whole parse tree straight out of the runtime's memory in one JS pass — no call into wasm per node.
 * It mirrors tree-sitter 0.24.7 exactly (pinned, like fast-cursor.ts): the node view of a TreeCursor walk
 * (hidden nodes flattened, aliases, field ids, UTF-8 byte offsets) and the S-expression printer
 * `ts_subtree__write_to_string` (what `node.toString()` / Python's `str(node)` print), including hidden
 * MISSING tokens, `(UNEXPECTED 'c')` leaves and field labels.
 *
 * Memory layout (wasm32, little-endian), from lib/src/subtree.h, tree.h and parser.h of 0.24.7:
 * - `Subtree` (8 bytes): bit 0 of byte 0 set → inline leaf {bits: visible 1, named 2, extra 3, missing 5;
 *   symbol u8 @1; padding bytes u8 @6; size bytes u8 @7}; else a pointer to `SubtreeHeapData`
 *   {padding.bytes @4; size.bytes @16; child_count @36; symbol u16 @40; bits @44: visible 0, named 1,
 *   extra 2; byte @45: missing bit 1; lookahead_char i32 @48; production_id u16 @66}, children stored just
 *   before it (`ptr - 8·child_count`).
 * - `TSTree`: root Subtree @0, language @8.
 * - `TSLanguage`: symbol_count @4, alias_count @8, field_count @32, max_alias_sequence_length u16 @36,
 *   field_map_slices @64, field_map_entries @68, symbol_metadata @72 (3 bytes each: visible, named,
 *   supertype), public_symbol_map @76, alias_sequences @84.
 */
import { runtimeModule, TreeTooDeepError } from './fast-cursor.ts';
import { charString, ERROR_SYMBOL, langInfo } from './language-tables.ts';
import type { ParsedCode } from './parsers.ts';

/** Raw tree levels read before giving up with {@link TreeTooDeepError} (the walk recurses). */
export const MAX_READ_DEPTH = 2000;

/** A parse tree as flat arrays: the nodes a TreeCursor visits, in pre-order (index 0 = root). */
export interface FlatSyntaxTree {
  /** Number of nodes. */
  count: number;
  /** Type name (`node.type`) of each node. */
  type: string[];
  /** `node.is_named` (1/0). */
  named: Uint8Array;
  /** `node.is_missing` (1/0). */
  missing: Uint8Array;
  /** Field id under the parent (TreeCursor `currentFieldId`, 0 = none); names in `fieldNames`. */
  field: Uint16Array;
  /** Field names by id (index 0 is null). */
  fieldNames: readonly (string | null)[];
  /** UTF-8 byte offsets. */
  start: Uint32Array;
  end: Uint32Array;
  /** Parent node index (-1 for the root). */
  parent: Int32Array;
  /** Number of node levels (root only = 1). */
  depth: number;
  /** `str(node)` of the root. */
  rootString: string;
  /** `str(node)` of node `i` (for any node; spans of the root string where possible). */
  nodeString(i: number): string;
  /**
   * Where `str(node)` of node `i` lies in `rootString` (`spanStart[i]` to `spanEnd[i]`), or −1 for a node
   * not printed inside the root's string (anonymous nodes: those with children are printed on their own).
   */
  spanStart: Int32Array;
  spanEnd: Int32Array;
}

/** Field value meaning the printed subtree is the root of the print (`ROOT_FIELD`). */
const ROOT = -1;

/** Node arrays reused from one read to the next (grown as needed), so a read allocates almost nothing. */
function newScratch(cap: number) {
  return {
    cap,
    named: new Uint8Array(cap),
    missingA: new Uint8Array(cap),
    field: new Uint16Array(cap),
    start: new Uint32Array(cap),
    end: new Uint32Array(cap),
    parent: new Int32Array(cap),
    sStart: new Int32Array(cap),
    sEnd: new Int32Array(cap),
  };
}
type Scratch = ReturnType<typeof newScratch>;
let scratch = newScratch(1024);

/** `s` with twice the room, the first `s.cap` entries kept. */
function grownScratch(s: Scratch): Scratch {
  const g = newScratch(s.cap * 2);
  g.named.set(s.named);
  g.missingA.set(s.missingA);
  g.field.set(s.field);
  g.start.set(s.start);
  g.end.set(s.end);
  g.parent.set(s.parent);
  g.sStart.set(s.sStart);
  g.sEnd.set(s.sEnd);
  return g;
}

type Heaps = { u8: Uint8Array; u16: Uint16Array; u32: Uint32Array; i32: Int32Array };

/**
 * One read of one tree: the walk's state (node arrays, the printed string) and the language tables. The
 * walk passes plain numbers (no object per node): it runs for every parse CodeBLEU reads.
 */
class TreeWalk {
  readonly type: string[] = [];
  n = 0;
  maxDepth = 1;
  out = '';
  /** Anonymous nodes with children: printed on their own later (tree-sitter prints them differently). */
  readonly standalone: [number, number, number, boolean][] = [];
  s: Scratch = scratch;
  readonly u8: Uint8Array;
  readonly u16: Uint16Array;
  readonly u32: Uint32Array;

  constructor(
    readonly h: Heaps,
    readonly L: ReturnType<typeof langInfo>,
  ) {
    this.u8 = h.u8;
    this.u16 = h.u16;
    this.u32 = h.u32;
  }

  private record(
    pubSym: number,
    missing: number,
    cfield: number,
    pos: number,
    size: number,
    cparent: number,
  ) {
    const node = this.n++;
    if (node >= this.s.cap) scratch = this.s = grownScratch(this.s);
    const s = this.s;
    this.type[node] = this.L.names[pubSym] ?? 'ERROR';
    s.named[node] = this.L.publicNamed[pubSym] as number;
    s.missingA[node] = missing;
    s.field[node] = cfield;
    s.start[node] = pos;
    s.end[node] = pos + size;
    s.parent[node] = cparent;
    s.sStart[node] = -1;
    return node;
  }

  /**
   * Prints the opening of a subtree the printer shows (its children and `)` follow) and where node `node`'s
   * string starts; `leafError`: the heap address of an ERROR leaf (printed as UNEXPECTED), else −1.
   */
  private open(
    node: number,
    sym: number,
    aliasNamed: boolean,
    pfield: number,
    isNamed: number,
    missing: number,
    leafError: number,
  ) {
    const { names } = this.L;
    if (pfield !== ROOT) this.out += pfield > 0 ? (this.L.fieldPrefixes[pfield] as string) : ' ';
    if (node >= 0) this.s.sStart[node] = this.out.length;
    if (leafError >= 0) {
      this.out += `(UNEXPECTED ${charString(this.h.i32[(leafError + 48) >> 2] as number)}`;
    } else {
      const name = names[sym] ?? '(null)';
      if (missing) this.out += aliasNamed || isNamed ? `(MISSING ${name}` : `(MISSING "${name}"`;
      else this.out += this.L.opens[sym] ?? `(${name}`;
    }
  }

  /** The printed form of a root the printer would not show: `(name`, `(name)` or `("name")`. */
  private openHiddenRoot(sym: number, childCount: number, isNamed: number) {
    const name = this.L.names[sym] ?? '(null)';
    if (childCount > 0) this.out += `(${name}`;
    else if (isNamed) this.out += `(${name})`;
    else this.out += `("${name}")`;
  }

  /** The children of the heap subtree at `p` (see {@link visit} for the arguments). */
  private children(
    p: number,
    childCount: number,
    pvis: boolean,
    pfield: number,
    record: boolean,
    cvis: boolean,
    cfield: number,
    pos: number,
    cparent: number,
    level: number,
    rawDepth: number,
  ): void {
    const { u8, u16, u32, L } = this;
    const production = u16[(p + 66) >> 1] as number;
    const seq = production ? L.aliasSeq + 2 * production * L.maxAlias : 0;
    let fm = 0;
    let fmEnd = 0;
    if (L.hasFields) {
      const sl = L.slices + 4 * production;
      fm = L.entries + 4 * (u16[sl >> 1] as number);
      fmEnd = fm + 4 * (u16[(sl + 2) >> 1] as number);
    }
    const base = p - 8 * childCount;
    let structural = 0;
    let at = pos;
    for (let j = 0; j < childCount; j++) {
      const cs = base + 8 * j;
      const cb = u8[cs] as number;
      const heap = cb & 1 ? 0 : (u32[cs >> 2] as number);
      const flags = cb & 1 ? cb >> 1 : (u8[heap + 44] as number);
      const cVisible = flags & 1;
      const cExtra = cb & 1 ? (cb >> 3) & 1 : (flags >> 2) & 1;
      if (j > 0) at += cb & 1 ? (u8[cs + 6] as number) : (u32[(heap + 4) >> 2] as number);
      if (cExtra) {
        this.visit(cs, 0, false, 0, record, cVisible === 1, 0, at, cparent, level, rawDepth);
      } else {
        const cAlias = seq ? (u16[(seq >> 1) + structural] as number) : 0;
        let own = 0;
        for (let e = fm; e < fmEnd; e += 4) {
          if ((u8[e + 3] as number) === 0 && (u8[e + 2] as number) === structural) {
            own = u16[e >> 1] as number;
            break;
          }
        }
        const aliasNamed = cAlias ? (L.metaNamed[cAlias] as number) === 1 : false;
        const childCvis = cVisible === 1 || cAlias !== 0;
        const ownP = own || (pvis ? 0 : pfield);
        const ownC = own || (cvis ? 0 : cfield);
        this.visit(cs, cAlias, aliasNamed, ownP, record, childCvis, ownC, at, cparent, level, rawDepth);
        structural++;
      }
      at += cb & 1 ? (u8[cs + 7] as number) : (u32[(heap + 16) >> 2] as number);
    }
  }

  /**
   * One subtree at `slot`. `record`: collect nodes (false = print only). `cvis`: the cursor stops here;
   * `cfield`: its cursor field id; `pfield`: the printer's field (0 none, ROOT, or a field id).
   */
  visit(
    slot: number,
    alias: number,
    aliasNamed: boolean,
    pfield: number,
    record: boolean,
    cvis: boolean,
    cfield: number,
    pos: number,
    cparent: number,
    level: number,
    rawDepth: number,
  ): void {
    if (rawDepth > MAX_READ_DEPTH) throw new TreeTooDeepError('syntax tree too deep to read');
    const { u8, u16, u32 } = this;
    const b0 = u8[slot] as number;
    const p = b0 & 1 ? 0 : (u32[slot >> 2] as number);
    const flags = b0 & 1 ? b0 >> 1 : (u8[p + 44] as number);
    const visible = flags & 1;
    const isNamed = (flags >> 1) & 1;
    const missing = b0 & 1 ? (b0 >> 5) & 1 : ((u8[p + 45] as number) >> 1) & 1;
    const symbol = b0 & 1 ? (u8[slot + 1] as number) : (u16[(p + 40) >> 1] as number);
    const size = b0 & 1 ? (u8[slot + 7] as number) : (u32[(p + 16) >> 2] as number);
    const childCount = b0 & 1 ? 0 : (u32[(p + 36) >> 2] as number);
    let node = -1;
    if (record && cvis) {
      node = this.record(this.L.publicMap[alias || symbol] as number, missing, cfield, pos, size, cparent);
      if (level > this.maxDepth) this.maxDepth = level;
    }
    const pvis = missing === 1 || (alias ? aliasNamed : visible === 1 && isNamed === 1);
    if (pvis) {
      const leafError = symbol === ERROR_SYMBOL && childCount === 0 && size > 0 ? p : -1;
      this.open(node, alias || symbol, aliasNamed, pfield, isNamed, missing, leafError);
    } else if (pfield === ROOT) this.openHiddenRoot(alias || symbol, childCount, isNamed);
    if (childCount > 0) {
      const childParent = node >= 0 ? node : cparent;
      const childLevel = node >= 0 ? level + 1 : level;
      this.children(
        p,
        childCount,
        pvis,
        pfield,
        record,
        cvis,
        cfield,
        pos,
        childParent,
        childLevel,
        rawDepth + 1,
      );
      if (node >= 0 && !pvis && this.n > node + 1) this.standalone.push([node, slot, alias, aliasNamed]);
    }
    if (pvis) {
      this.out += ')';
      if (node >= 0) this.s.sEnd[node] = this.out.length;
    }
  }

  /** The string of a subtree printed on its own (`str(node)` of an anonymous node with children). */
  printAlone(slot: number, alias: number, aliasNamed: boolean): string {
    this.out = '';
    this.visit(slot, alias, aliasNamed, ROOT, false, false, 0, 0, -1, 1, 0);
    return this.out;
  }

  result(rootString: string, extra: Map<number, string>): FlatSyntaxTree {
    const { n, s } = this;
    const { sStart, sEnd } = s;
    return {
      count: n,
      type: this.type,
      named: s.named.subarray(0, n),
      missing: s.missingA.subarray(0, n),
      field: s.field.subarray(0, n),
      fieldNames: this.L.fieldNames,
      start: s.start.subarray(0, n),
      end: s.end.subarray(0, n),
      parent: s.parent.subarray(0, n),
      depth: this.maxDepth,
      rootString,
      spanStart: sStart.subarray(0, n),
      spanEnd: sEnd.subarray(0, n),
      nodeString(i) {
        if (i === 0) return rootString;
        const x = extra.get(i);
        if (x !== undefined) return x;
        const a = sStart[i] as number;
        if (a >= 0) return rootString.slice(a, sEnd[i]);
        // an anonymous leaf: printed only on its own
        throw new Error(`nodeString(${i}): not available for an anonymous leaf`);
      },
    };
  }
}

/**
 * Reads `parsed`'s tree into a {@link FlatSyntaxTree}. Its arrays (and `nodeString`) are views of buffers the
 * next `readTree` call reuses: copy out what must outlive it. Throws {@link TreeTooDeepError} past
 * {@link MAX_READ_DEPTH} levels or when the JS stack runs out first (use a cursor walk then). Nothing may use
 * the tree-sitter API meanwhile.
 */
export function readTree(parsed: ParsedCode): FlatSyntaxTree {
  const rt = runtimeModule();
  if (!rt) throw new Error('tree-sitter runtime not initialised — await initSyntax([...]) first');
  const h: Heaps = { u8: rt.HEAPU8, u16: rt.HEAPU16, u32: rt.HEAPU32, i32: rt.HEAP32 };
  const treeAddr = (parsed.tree as unknown as Record<number, number>)[0] as number;
  const L = langInfo(parsed.tree.getLanguage(), h.u32[(treeAddr + 8) >> 2] as number, h.u8, h.u16, h.u32);
  const walk = new TreeWalk(h, L);
  const rb = h.u8[treeAddr] as number;
  const rootPadding =
    rb & 1 ? (h.u8[treeAddr + 6] as number) : (h.u32[((h.u32[treeAddr >> 2] as number) + 4) >> 2] as number);
  try {
    walk.visit(treeAddr, 0, false, ROOT, true, true, 0, rootPadding, -1, 1, 0);
  } catch (e) {
    // the JS stack ran out before MAX_READ_DEPTH (a caller deep in its own recursion)
    if (e instanceof RangeError) throw new TreeTooDeepError('syntax tree too deep to read', { cause: e });
    throw e;
  }
  const rootString = walk.out;
  const extra = new Map<number, string>();
  for (const [node, slot, alias, aliasNamed] of walk.standalone)
    extra.set(node, walk.printAlone(slot, alias, aliasNamed));
  return walk.result(rootString, extra);
}
