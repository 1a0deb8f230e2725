/**
 * A tree walk without per-call marshalling: web-tree-sitter's TreeCursor copies the cursor into the runtime's
 * transfer buffer and back on every call; the runtime's own cursor functions keep it there. This calls those
 * functions directly (web-tree-sitter 0.24.7 internals, pinned), which makes a full walk several times faster.
 * One walk at a time: any other use of the tree-sitter API in between invalidates the cursor.
 */
import type { ParsedCode } from './parsers.ts';

/** The parts of the emscripten module this uses (captured in `initSyntax`). */
export interface RuntimeModule {
  HEAP32: Int32Array;
  HEAPU8: Uint8Array;
  HEAPU16: Uint16Array;
  HEAPU32: Uint32Array;
  _ts_init(): number;
  _free(address: number): void;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_missing_wasm(tree: number): number;
  _ts_tree_cursor_current_node_is_named_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
  _ts_tree_cursor_current_node_wasm(tree: number): void;
  _ts_node_to_string_wasm(tree: number): number;
}

const REQUIRED: readonly (keyof RuntimeModule)[] = [
  '_ts_init',
  '_free',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_node_is_missing_wasm',
  '_ts_tree_cursor_current_node_is_named_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
  '_ts_tree_cursor_current_node_wasm',
  '_ts_node_to_string_wasm',
];

let runtime: RuntimeModule | null = null;
let transfer = 0;
let stackPointer: WebAssembly.Global | null = null;

/** The runtime module recorded by `initSyntax` (null before). */
export function runtimeModule(): RuntimeModule | null {
  return runtime;
}

/** Records the runtime module (called once the runtime is initialised); throws if it lacks a function. */
export function setRuntimeModule(m: Record<string, unknown>, sp: WebAssembly.Global): void {
  stackPointer = sp;
  for (const k of REQUIRED) {
    if (typeof m[k] !== 'function') throw new Error(`web-tree-sitter runtime lacks ${k} — is it 0.24.7?`);
  }
  runtime = m as unknown as RuntimeModule;
  transfer = runtime._ts_init() >> 2;
}

/** Cursor over one parsed tree, positioned at the root. Offsets are UTF-8 bytes. */
export interface FastCursor {
  gotoFirstChild(): boolean;
  gotoNextSibling(): boolean;
  gotoParent(): boolean;
  typeId(): number;
  /** Field id of the current node under its parent (0 = none); names via the language's `fields`. */
  fieldId(): number;
  isMissing(): boolean;
  isNamed(): boolean;
  startByte(): number;
  endByte(): number;
  /**
   * tree-sitter's S-expression of the current node (`ts_node_string`). The printer recurses once per tree
   * level: on trees deeper than the engine's native stack allows (a few thousand levels) this throws a
   * {@link TreeTooDeepError} and leaves the runtime usable.
   */
  nodeString(): string;
  /** Frees the cursor; required. */
  delete(): void;
}

const decoder = new TextDecoder();

/** The tree is too deep for tree-sitter's recursive printer. */
export class TreeTooDeepError extends Error {}

/** Starts a {@link FastCursor} at the root of `parsed`. */
export function fastCursor(parsed: ParsedCode): FastCursor {
  const rt = runtime;
  if (!rt) throw new Error('tree-sitter runtime not initialised — await initSyntax([...]) first');
  const pub = parsed.walk();
  const state = pub as unknown as Record<number, number>;
  const tree = (parsed.tree as unknown as Record<number, number>)[0] as number;
  const load = () => {
    const h = rt.HEAP32;
    h[transfer] = state[0] as number;
    h[transfer + 1] = state[1] as number;
    h[transfer + 2] = state[2] as number;
    h[transfer + 3] = state[3] as number;
  };
  load();
  return {
    gotoFirstChild: () => rt._ts_tree_cursor_goto_first_child_wasm(tree) === 1,
    gotoNextSibling: () => rt._ts_tree_cursor_goto_next_sibling_wasm(tree) === 1,
    gotoParent: () => rt._ts_tree_cursor_goto_parent_wasm(tree) === 1,
    typeId: () => rt._ts_tree_cursor_current_node_type_id_wasm(tree),
    fieldId: () => rt._ts_tree_cursor_current_field_id_wasm(tree),
    isMissing: () => rt._ts_tree_cursor_current_node_is_missing_wasm(tree) === 1,
    isNamed: () => rt._ts_tree_cursor_current_node_is_named_wasm(tree) === 1,
    startByte: () => rt._ts_tree_cursor_start_index_wasm(tree) >>> 0,
    endByte: () => rt._ts_tree_cursor_end_index_wasm(tree) >>> 0,
    nodeString: () => {
      const h = rt.HEAP32;
      const saved = [h[transfer], h[transfer + 1], h[transfer + 2], h[transfer + 3]] as number[];
      rt._ts_tree_cursor_current_node_wasm(tree);
      const sp = stackPointer?.value as number;
      let address: number;
      try {
        address = rt._ts_node_to_string_wasm(tree);
      } catch (e) {
        // a native stack overflow unwinds the wasm frames without restoring the C stack pointer
        if (stackPointer) stackPointer.value = sp;
        const h3 = rt.HEAP32;
        for (let i = 0; i < 4; i++) h3[transfer + i] = saved[i] as number;
        if (e instanceof RangeError)
          throw new TreeTooDeepError('syntax tree too deep to print', { cause: e });
        throw e;
      }
      const heap = rt.HEAPU8;
      const end = heap.indexOf(0, address);
      const s = decoder.decode(heap.subarray(address, end));
      rt._free(address);
      const h2 = rt.HEAP32;
      for (let i = 0; i < 4; i++) h2[transfer + i] = saved[i] as number;
      return s;
    },
    delete: () => pub.delete(),
  };
}
