/**
 * web-tree-sitter always feeds the parser UTF-16, which doubles every byte count the parser's error
 * recovery weighs; parsing UTF-8 (as the reference tools and native bindings do) recovers from syntax errors
 * differently. This module patches the pinned web-tree-sitter runtime (in memory, at load time) so it reads
 * UTF-8 input and reports cursor offsets in UTF-8 bytes:
 *
 * 1. `ts_parser_parse_wasm`: the TSInput encoding constant UTF16LE → UTF8.
 * 2. its read callback: byte offsets and read lengths are no longer halved/doubled.
 * 3. `ts_tree_root_node_wasm` / `ts_tree_cursor_new_wasm`: the root node's offsets stay in bytes, so
 *    `tree.walk()` starts from the right position.
 * 4. `ts_tree_cursor_start_index_wasm` / `ts_tree_cursor_end_index_wasm`: return byte offsets.
 *
 * Each patch checks the exact instruction bytes it expects and throws otherwise (a different runtime build).
 * With the patched runtime, parse through {@link utf8Input}; node positions from the Node API (columns,
 * `startIndex`, `text`) are not meaningful — read offsets through a TreeCursor and slice the UTF-8 bytes.
 */

const I32_CONST_1_SHR_U = [0x41, 0x01, 0x76];
const I32_CONST_1_SHL = [0x41, 0x01, 0x74];

class Reader {
  constructor(
    readonly b: Uint8Array,
    public p = 0,
  ) {}
  u8(): number {
    return this.b[this.p++] as number;
  }
  leb(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      const byte = this.u8();
      result += (byte & 0x7f) * 2 ** shift;
      shift += 7;
      if ((byte & 0x80) === 0) return result;
    }
  }
  name(): string {
    const n = this.leb();
    const s = new TextDecoder().decode(this.b.subarray(this.p, this.p + n));
    this.p += n;
    return s;
  }
}

interface Body {
  start: number;
  end: number;
}

function findAll(b: Uint8Array, body: Body, pat: readonly number[]): number[] {
  const hits: number[] = [];
  for (let i = body.start; i + pat.length <= body.end; i++) {
    let ok = true;
    for (let j = 0; j < pat.length; j++) {
      if (b[i + j] !== pat[j]) {
        ok = false;
        break;
      }
    }
    if (ok) hits.push(i);
  }
  return hits;
}

/** The module's layout the patch needs: imported function count, exported functions, code bodies, table. */
interface WasmLayout {
  importedFuncs: number;
  exports: Map<string, number>;
  bodies: Body[];
  elems: number[];
}

/** Skips one import entry's descriptor; true for an imported function. */
function skipImport(r: Reader): boolean {
  r.name();
  r.name();
  const kind = r.u8();
  if (kind === 0) {
    r.leb();
    return true;
  }
  if (kind === 1) {
    r.u8();
    const flags = r.leb();
    r.leb();
    if (flags & 1) r.leb();
  } else if (kind === 2) {
    const flags = r.leb();
    r.leb();
    if (flags & 1) r.leb();
  } else if (kind === 3) {
    r.u8();
    r.u8();
  }
  return false;
}

/** Reads the sections the patch needs: imports (2), exports (7), elements (9), code (10). */
function readLayout(b: Uint8Array): WasmLayout {
  const r = new Reader(b, 8);
  const layout: WasmLayout = { importedFuncs: 0, exports: new Map(), bodies: [], elems: [] };
  while (r.p < b.length) {
    const id = r.u8();
    const size = r.leb();
    const end = r.p + size;
    if (id === 2) {
      const n = r.leb();
      for (let i = 0; i < n; i++) if (skipImport(r)) layout.importedFuncs++;
    } else if (id === 7) {
      const n = r.leb();
      for (let i = 0; i < n; i++) {
        const name = r.name();
        const kind = r.u8();
        const index = r.leb();
        if (kind === 0) layout.exports.set(name, index);
      }
    } else if (id === 9) {
      // one active segment with an offset expression, as emscripten emits
      r.leb(); // segment count
      r.leb(); // flags 0: active, table 0, offset expression, function indices
      while (b[r.p] !== 0x0b) r.p++;
      r.p++;
      const n = r.leb();
      layout.elems = Array.from({ length: n }, () => r.leb());
    } else if (id === 10) {
      const n = r.leb();
      for (let i = 0; i < n; i++) {
        const len = r.leb();
        layout.bodies.push({ start: r.p, end: r.p + len });
        r.p += len;
      }
    }
    r.p = end;
  }
  return layout;
}

/** Returns a patched copy of the web-tree-sitter runtime wasm (see the module doc). */
export function patchRuntimeForUtf8(wasm: Uint8Array): Uint8Array {
  const b = new Uint8Array(wasm);
  const { importedFuncs, exports, bodies, elems } = readLayout(b);
  const body = (name: string): Body => {
    const index = exports.get(name);
    const bd = index === undefined ? undefined : bodies[index - importedFuncs];
    if (!bd) throw new Error(`web-tree-sitter runtime: export ${name} not found`);
    return bd;
  };
  const expect1 = (what: string, hits: number[], n = 1): number[] => {
    if (hits.length !== n) {
      throw new Error(
        `web-tree-sitter runtime: unexpected code in ${what} (${hits.length} matches, want ${n})`,
      );
    }
    return hits;
  };

  // The TSInput on the stack: `global.get 2; i32.const K; i32.add; i32.store offset=R` stores the read
  // callback (table slot K) at R; the encoding field follows at R+4 as `i32.const 1` or, merged with the
  // decode field, `i64.const 1`.
  const parse = body('ts_parser_parse_wasm');
  const slots = findAll(b, parse, [0x23, 0x02, 0x41]).filter(
    (p) => b[p + 4] === 0x6a && b[p + 5] === 0x36 && b[p + 6] === 0x02,
  );
  const slot = expect1('ts_parser_parse_wasm read callback', slots)[0] as number;
  const encOffset = (b[slot + 7] as number) + 4;
  const encHits = [
    ...findAll(b, parse, [0x42, 0x01, 0x37, 0x02, encOffset]),
    ...findAll(b, parse, [0x41, 0x01, 0x36, 0x02, encOffset]),
  ];
  if (encHits.length === 0) throw new Error('web-tree-sitter runtime: TSInput encoding store not found');
  // the store that builds this struct sits next to the callback store
  const enc = encHits.reduce((best, p) => (Math.abs(p - slot) < Math.abs(best - slot) ? p : best));
  if (Math.abs(enc - slot) > 64) throw new Error('web-tree-sitter runtime: TSInput encoding store not found');
  b[enc + 1] = 0x00;
  const cbFunc = elems[b[slot + 3] as number];
  const cb = cbFunc === undefined ? undefined : bodies[cbFunc - importedFuncs];
  if (!cb) throw new Error('web-tree-sitter runtime: read callback body not found');
  // 2. call_parse_callback: byte >> 1, column >> 1, *bytes_read << 1
  for (const p of expect1('call_parse_callback shifts', findAll(b, cb, I32_CONST_1_SHR_U), 2)) b[p + 1] = 0;
  for (const p of expect1('call_parse_callback length', findAll(b, cb, I32_CONST_1_SHL))) b[p + 1] = 0;
  // 3. the root node handed to JS and back into a new cursor: byte offsets (a cursor made from a rounded
  //    root offset would shift every position by one byte)
  for (const p of expect1(
    'ts_tree_root_node_wasm',
    findAll(b, body('ts_tree_root_node_wasm'), I32_CONST_1_SHR_U),
    2,
  )) {
    b[p + 1] = 0;
  }
  for (const p of expect1(
    'ts_tree_cursor_new_wasm',
    findAll(b, body('ts_tree_cursor_new_wasm'), I32_CONST_1_SHL),
    2,
  )) {
    b[p + 1] = 0;
  }
  // 4. cursor start/end index: the final `>> 1`
  for (const name of ['ts_tree_cursor_start_index_wasm', 'ts_tree_cursor_end_index_wasm']) {
    const bd = body(name);
    for (const p of expect1(name, findAll(b, bd, I32_CONST_1_SHR_U))) b[p + 1] = 0;
  }
  return b;
}

/** Largest chunk handed to the runtime per read (its input buffer is 10 KiB, 2 bytes reserved). */
const CHUNK = 10 * 1024 - 2;

/**
 * The read callback for the patched runtime: at byte `index`, a string whose UTF-16 code units carry the
 * UTF-8 bytes two per unit (little-endian) and whose length is the number of bytes in the chunk.
 */
export function utf8Input(bytes: Uint8Array): (index: number) => string {
  let lastIndex = -1;
  let last = '';
  return (index) => {
    if (index === lastIndex) return last;
    if (index >= bytes.length) return '';
    const len = Math.min(bytes.length - index, CHUNK);
    const units = new Uint16Array(len);
    const pairs = len >> 1;
    for (let k = 0; k < pairs; k++) {
      const o = index + 2 * k;
      units[k] = (bytes[o] as number) | ((bytes[o + 1] as number) << 8);
    }
    if (len & 1) units[pairs] = bytes[index + len - 1] as number;
    let s = '';
    for (let k = 0; k < len; k += 4096) {
      s += String.fromCharCode.apply(null, units.subarray(k, k + 4096) as unknown as number[]);
    }
    lastIndex = index;
    last = s;
    return s;
  };
}
