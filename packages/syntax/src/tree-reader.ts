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
let scratch = newScratch(1024);

/**
 * Reads `parsed`'s tree into a {@link FlatSyntaxTree}. Its arrays (and `nodeString`) are views of buffers the
 * next `readTree` call reuses: copy out what must outlive it. Throws {@link TreeTooDeepError} past
 * {@link MAX_READ_DEPTH} levels or when the JS stack runs out first (use a cursor walk then). Nothing may use
 * the tree-sitter API meanwhile.
 */
export function readTree(parsed: ParsedCode): FlatSyntaxTree {
  const rt = runtimeModule();
  if (!rt) throw new Error('tree-sitter runtime not initialised — await initSyntax([...]) first');
  const u8 = rt.HEAPU8;
  const u16 = rt.HEAPU16;
  const u32 = rt.HEAPU32;
  const i32 = rt.HEAP32;
  const treeAddr = (parsed.tree as unknown as Record<number, number>)[0] as number;
  const L = langInfo(parsed.tree.getLanguage(), u32[(treeAddr + 8) >> 2] as number, u8, u16, u32);
  const {
    names,
    opens,
    fieldPrefixes,
    metaNamed,
    fieldNames,
    hasFields,
    maxAlias,
    aliasSeq,
    slices,
    entries,
  } = L;

  let { cap, named, missingA, field, start, end, parent, sStart, sEnd } = scratch;
  const type: string[] = [];
  let n = 0;
  let maxDepth = 1;
  const grow = () => {
    cap *= 2;
    const g8 = (a: Uint8Array) => {
      const b = new Uint8Array(cap);
      b.set(a);
      return b;
    };
    const g32 = <T extends Uint32Array | Int32Array>(a: T, make: (k: number) => T): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    named = g8(named);
    missingA = g8(missingA);
    const f = new Uint16Array(cap);
    f.set(field);
    field = f;
    start = g32(start, (k) => new Uint32Array(k));
    end = g32(end, (k) => new Uint32Array(k));
    parent = g32(parent, (k) => new Int32Array(k));
    sStart = g32(sStart, (k) => new Int32Array(k));
    sEnd = g32(sEnd, (k) => new Int32Array(k));
    scratch = { cap, named, missingA, field, start, end, parent, sStart, sEnd };
  };
  /** Anonymous nodes with children: printed on their own later (tree-sitter prints them differently). */
  const standalone: [number, number, number, boolean][] = [];
  let out = '';

  /**
   * One subtree at `slot`. `record`: collect nodes (false = print only). `cvis`: the cursor stops here;
   * `cfield`: its cursor field id; `pfield`: the printer's field (0 none, ROOT, or a field id).
   */
  const visit = (
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
  ): void => {
    if (rawDepth > MAX_READ_DEPTH) throw new TreeTooDeepError('syntax tree too deep to read');
    const b0 = u8[slot] as number;
    let visible: number;
    let isNamed: number;
    let missing: number;
    let symbol: number;
    let size: number;
    let childCount = 0;
    let p = 0;
    if (b0 & 1) {
      visible = (b0 >> 1) & 1;
      isNamed = (b0 >> 2) & 1;
      missing = (b0 >> 5) & 1;
      symbol = u8[slot + 1] as number;
      size = u8[slot + 7] as number;
    } else {
      p = u32[slot >> 2] as number;
      const f = u8[p + 44] as number;
      visible = f & 1;
      isNamed = (f >> 1) & 1;
      missing = ((u8[p + 45] as number) >> 1) & 1;
      symbol = u16[(p + 40) >> 1] as number;
      size = u32[(p + 16) >> 2] as number;
      childCount = u32[(p + 36) >> 2] as number;
    }
    let node = -1;
    if (record && cvis) {
      node = n++;
      if (node >= cap) grow();
      const pubSym = L.publicMap[alias || symbol] as number;
      type[node] = names[pubSym] ?? 'ERROR';
      named[node] = L.publicNamed[pubSym] as number;
      missingA[node] = missing;
      field[node] = cfield;
      start[node] = pos;
      end[node] = pos + size;
      parent[node] = cparent;
      sStart[node] = -1;
      if (level > maxDepth) maxDepth = level;
    }
    const isRoot = pfield === ROOT;
    const pvis = missing === 1 || (alias ? aliasNamed : visible === 1 && isNamed === 1);
    if (pvis) {
      if (!isRoot) out += pfield > 0 ? (fieldPrefixes[pfield] as string) : ' ';
      if (node >= 0) sStart[node] = out.length;
      if (symbol === ERROR_SYMBOL && childCount === 0 && size > 0) {
        out += `(UNEXPECTED ${charString(i32[(p + 48) >> 2] as number)}`;
      } else {
        const name = names[alias || symbol] ?? '(null)';
        if (missing) out += aliasNamed || isNamed ? `(MISSING ${name}` : `(MISSING "${name}"`;
        else out += opens[alias || symbol] ?? `(${name}`;
      }
    } else if (isRoot) {
      const name = names[alias || symbol] ?? '(null)';
      if (childCount > 0) out += `(${name}`;
      else if (isNamed) out += `(${name})`;
      else out += `("${name}")`;
    }
    if (childCount > 0) {
      const production = u16[(p + 66) >> 1] as number;
      const seq = production ? aliasSeq + 2 * production * maxAlias : 0;
      let fm = 0;
      let fmEnd = 0;
      if (hasFields) {
        const sl = slices + 4 * production;
        fm = entries + 4 * (u16[sl >> 1] as number);
        fmEnd = fm + 4 * (u16[(sl + 2) >> 1] as number);
      }
      const childParent = node >= 0 ? node : cparent;
      const childLevel = node >= 0 ? level + 1 : level;
      const base = p - 8 * childCount;
      let structural = 0;
      let at = pos;
      for (let j = 0; j < childCount; j++) {
        const cs = base + 8 * j;
        const cb = u8[cs] as number;
        let cVisible: number;
        let cExtra: number;
        let cPadding: number;
        let cSize: number;
        if (cb & 1) {
          cVisible = (cb >> 1) & 1;
          cExtra = (cb >> 3) & 1;
          cPadding = u8[cs + 6] as number;
          cSize = u8[cs + 7] as number;
        } else {
          const cp = u32[cs >> 2] as number;
          const f = u8[cp + 44] as number;
          cVisible = f & 1;
          cExtra = (f >> 2) & 1;
          cPadding = u32[(cp + 4) >> 2] as number;
          cSize = u32[(cp + 16) >> 2] as number;
        }
        if (j > 0) at += cPadding;
        if (cExtra) {
          visit(cs, 0, false, 0, record, cVisible === 1, 0, at, childParent, childLevel, rawDepth + 1);
        } else {
          const cAlias = seq ? (u16[(seq >> 1) + structural] as number) : 0;
          let own = 0;
          for (let e = fm; e < fmEnd; e += 4) {
            if ((u8[e + 3] as number) === 0 && (u8[e + 2] as number) === structural) {
              own = u16[e >> 1] as number;
              break;
            }
          }
          visit(
            cs,
            cAlias,
            cAlias ? (metaNamed[cAlias] as number) === 1 : false,
            own || (pvis ? 0 : pfield),
            record,
            cVisible === 1 || cAlias !== 0,
            own || (cvis ? 0 : cfield),
            at,
            childParent,
            childLevel,
            rawDepth + 1,
          );
          structural++;
        }
        at += cSize;
      }
      if (node >= 0 && !pvis && n > node + 1) standalone.push([node, slot, alias, aliasNamed]);
    }
    if (pvis) {
      out += ')';
      if (node >= 0) sEnd[node] = out.length;
    }
  };

  const rootSlot = treeAddr;
  const rb = u8[rootSlot] as number;
  const rootPadding =
    rb & 1 ? (u8[rootSlot + 6] as number) : (u32[((u32[rootSlot >> 2] as number) + 4) >> 2] as number);
  try {
    visit(rootSlot, 0, false, ROOT, true, true, 0, rootPadding, -1, 1, 0);
  } catch (e) {
    // the JS stack ran out before MAX_READ_DEPTH (a caller deep in its own recursion)
    if (e instanceof RangeError) throw new TreeTooDeepError('syntax tree too deep to read', { cause: e });
    throw e;
  }
  const rootString = out;
  const extra = new Map<number, string>();
  for (const [node, slot, alias, aliasNamed] of standalone) {
    out = '';
    visit(slot, alias, aliasNamed, ROOT, false, false, 0, 0, -1, 1, 0);
    extra.set(node, out);
  }
  return {
    count: n,
    type,
    named: named.subarray(0, n),
    missing: missingA.subarray(0, n),
    field: field.subarray(0, n),
    fieldNames,
    start: start.subarray(0, n),
    end: end.subarray(0, n),
    parent: parent.subarray(0, n),
    depth: maxDepth,
    rootString,
    spanStart: sStart.subarray(0, n),
    spanEnd: sEnd.subarray(0, n),
    nodeString(i) {
      if (i === 0) return rootString;
      const s = extra.get(i);
      if (s !== undefined) return s;
      const a = sStart[i] as number;
      if (a >= 0) return rootString.slice(a, sEnd[i]);
      // an anonymous leaf: printed only on its own
      throw new Error(`nodeString(${i}): not available for an anonymous leaf`);
    },
  };
}
