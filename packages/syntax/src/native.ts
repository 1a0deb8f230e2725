/**
 * The native parse path (Bun only): tree-sitter's C runtime and the pinned grammars compiled into one shared
 * library per grammar (native-build.ts), called through bun:ffi with one call per text that parses and
 * writes the whole tree into flat arrays (native/faun_tree.c). JS then reads the nodes from that memory with
 * no call per node. The result is the same {@link FlatSyntaxTree} `readTree` gives on the WASM path.
 *
 * `loadNative` (awaited by `initSyntax`) builds or finds the libraries; when that fails (no C compiler, not
 * Bun, FAUN_SYNTAX_NATIVE=0) `parseFlat` returns null and callers take the WASM path. Trees deeper than
 * {@link MAX_READ_DEPTH} also return null (the WASM path handles them the way the reference can).
 */
import type { SyntaxLang } from './languages.ts';
import type { FlatSyntaxTree } from './tree-reader.ts';

/** Raw tree levels the native reader accepts (the same bound as the WASM reader's). */
const MAX_DEPTH = 2000;

interface NativeSymbols {
  faun_ts_parse(src: Uint8Array, len: number, maxDepth: number): number;
  faun_ts_block(): number;
  faun_ts_cap(): number;
  faun_ts_strings(): number;
  faun_ts_strings_len(): number;
  faun_ts_strings_cap(): number;
  faun_ts_root_len(): number;
  faun_ts_depth(): number;
  faun_ts_symbol_name(sym: number): number;
  faun_ts_symbol_count(): number;
  faun_ts_field_name(id: number): number;
  faun_ts_field_count(): number;
  faun_ts_abi(): number;
}

interface NativeLang {
  fns: NativeSymbols;
  /** The C side's node block and string buffer as ArrayBuffers, remade only when they move or grow. */
  block: { ptr: number; cap: number; ab: ArrayBuffer } | null;
  strings: { ptr: number; cap: number; bytes: Uint8Array } | null;
  /** Type name by symbol (aliases included); ERROR symbols appended lazily. */
  names: string[];
  error: string;
  errorRepeat: string;
  fieldNames: (string | null)[];
}

interface Ffi {
  toArrayBuffer(ptr: number, offset: number, length: number): ArrayBuffer;
  cstring(ptr: number): string;
}

const natives = new Map<SyntaxLang, NativeLang>();
const failures = new Map<SyntaxLang, string>();
let ffi: Ffi | null = null;

/** True when native parsing is switched off by `FAUN_SYNTAX_NATIVE=0` or the runtime is not Bun. */
function disabled(): string | null {
  const env = typeof process !== 'undefined' ? process.env?.FAUN_SYNTAX_NATIVE : undefined;
  if (env === '0') return 'FAUN_SYNTAX_NATIVE=0';
  if (typeof Bun === 'undefined') return 'not running on Bun (bun:ffi)';
  return null;
}

/** How {@link loadNative} gets libraries that are not built yet. */
export type NativeMode = 'auto' | 'wait' | 'off';

let backgroundStarted = false;

/** Starts one detached build of `langs` (only from the main thread; later runs find the files). */
async function buildInBackground(langs: readonly SyntaxLang[]): Promise<void> {
  const { isMainThread } = await import('node:worker_threads');
  if (backgroundStarted || !isMainThread) return;
  backgroundStarted = true;
  const { spawn } = await import('node:child_process');
  const script = new URL('./native-build.ts', import.meta.url).pathname;
  const child = spawn(process.execPath, [script, ...langs], { detached: true, stdio: 'ignore' });
  child.on('error', () => {});
  child.unref();
}

/**
 * Makes `langs` parse natively when possible. Libraries already built (the usual case) are loaded at once.
 * Missing ones are built (a C compiler, ~20 CPU-seconds for all grammars, once): `wait` awaits the build;
 * `auto` (the default) starts it in a detached process and leaves this run on the WASM path, so no command
 * waits for a compiler; `off` loads nothing (as does `FAUN_SYNTAX_NATIVE=0`). Never throws: a language
 * that cannot is recorded in {@link nativeStatus} and stays on the WASM path.
 */
export async function loadNative(langs: readonly SyntaxLang[], mode: NativeMode = 'auto'): Promise<void> {
  const off = mode === 'off' ? 'native parsing not asked for' : disabled();
  if (off) {
    for (const l of langs) if (!natives.has(l)) failures.set(l, off);
    return;
  }
  const { cachedLibrary, nativeLibrary } = await import('./native-build.ts');
  const missing: SyntaxLang[] = [];
  await Promise.all(
    langs.map(async (lang) => {
      if (natives.has(lang)) return;
      try {
        let path = cachedLibrary(lang);
        if (!path && mode === 'auto') {
          missing.push(lang);
          failures.set(lang, 'native library being built in the background (used from the next run on)');
          return;
        }
        path ??= await nativeLibrary(lang);
        if (natives.has(lang)) return;
        natives.set(lang, await open(path));
        failures.delete(lang);
      } catch (e) {
        failures.set(lang, e instanceof Error ? e.message : String(e));
      }
    }),
  );
  if (missing.length && Bun.which(process.env.FAUN_CC || 'cc') !== null) await buildInBackground(missing);
}

async function open(path: string): Promise<NativeLang> {
  const m = await import('bun:ffi');
  const { FFIType: T } = m;
  ffi ??= {
    toArrayBuffer: (p, o, n) => m.toArrayBuffer(p as never, o, n),
    cstring: (p) => new m.CString(p as never).toString(),
  };
  const lib = m.dlopen(path, {
    faun_ts_parse: { args: [T.ptr, T.u32, T.u32], returns: T.i32 },
    faun_ts_block: { args: [], returns: T.ptr },
    faun_ts_cap: { args: [], returns: T.u32 },
    faun_ts_strings: { args: [], returns: T.ptr },
    faun_ts_strings_len: { args: [], returns: T.u32 },
    faun_ts_strings_cap: { args: [], returns: T.u32 },
    faun_ts_root_len: { args: [], returns: T.u32 },
    faun_ts_depth: { args: [], returns: T.u32 },
    faun_ts_symbol_name: { args: [T.u32], returns: T.ptr },
    faun_ts_symbol_count: { args: [], returns: T.u32 },
    faun_ts_field_name: { args: [T.u32], returns: T.ptr },
    faun_ts_field_count: { args: [], returns: T.u32 },
    faun_ts_abi: { args: [], returns: T.u32 },
  });
  const fns = lib.symbols as unknown as NativeSymbols;
  const str = (p: number) => (p ? (ffi as Ffi).cstring(p) : null);
  const names: string[] = [];
  for (let s = 0, n = fns.faun_ts_symbol_count(); s < n; s++)
    names.push(str(fns.faun_ts_symbol_name(s)) ?? '');
  const fieldNames: (string | null)[] = [null];
  for (let f = 1, n = fns.faun_ts_field_count(); f <= n; f++) fieldNames.push(str(fns.faun_ts_field_name(f)));
  return {
    fns,
    block: null,
    strings: null,
    names,
    error: str(fns.faun_ts_symbol_name(0xffff)) ?? 'ERROR',
    errorRepeat: str(fns.faun_ts_symbol_name(0xfffe)) ?? '_ERROR',
    fieldNames,
  };
}

/**
 * True when `loadNative` can be expected to give native parsers (on Bun, not switched off, libraries
 * already built or loaded): cheap, for sizing work before the grammars load.
 */
export function nativeExpected(): boolean {
  if (disabled()) return false;
  if (natives.size > 0) return true;
  return Bun.which(process.env.FAUN_CC || 'cc') !== null && builtLibraries() > 0;
}

let builtCount: number | null = null;

/** Libraries in the cache folder (counted once per process). */
function builtLibraries(): number {
  if (builtCount === null) {
    try {
      // synchronous on purpose (sizing decisions are); the Node/Bun edge is loaded only here
      const { readdirSync } = require('node:fs') as typeof import('node:fs');
      const { nativeCacheDir } = require('./native-build.ts') as typeof import('./native-build.ts');
      builtCount = readdirSync(nativeCacheDir()).filter((f) => f.endsWith('.so')).length;
    } catch {
      builtCount = 0;
    }
  }
  return builtCount;
}

/** Grammars loaded natively, and why the others are not. */
export function nativeStatus(): { native: SyntaxLang[]; wasm: Partial<Record<SyntaxLang, string>> } {
  return { native: [...natives.keys()], wasm: Object.fromEntries(failures) };
}

/** True when `lang` parses natively. */
export function isNative(lang: SyntaxLang): boolean {
  return natives.has(lang);
}

/** A flat tree from the native path, with the UTF-8 bytes parsed. */
export interface NativeParse {
  bytes: Uint8Array;
  tree: FlatSyntaxTree;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const latin1 = new TextDecoder('latin1');

/** The node block as an ArrayBuffer (made again only when the C side moved or grew it). */
function blockBuffer(nl: NativeLang, f: Ffi, cap: number): ArrayBuffer {
  const ptr = nl.fns.faun_ts_block();
  const b = nl.block;
  if (b && b.ptr === ptr && b.cap === cap) return b.ab;
  const ab = f.toArrayBuffer(ptr, 0, cap * 34);
  nl.block = { ptr, cap, ab };
  return ab;
}

/** The string buffer's whole capacity as bytes (made again only when it moved or grew). */
function stringBuffer(nl: NativeLang, f: Ffi): Uint8Array {
  const ptr = nl.fns.faun_ts_strings();
  const cap = nl.fns.faun_ts_strings_cap();
  const s = nl.strings;
  if (s && s.ptr === ptr && s.cap === cap) return s.bytes;
  const bytes = new Uint8Array(f.toArrayBuffer(ptr, 0, cap));
  nl.strings = { ptr, cap, bytes };
  return bytes;
}

/**
 * Parses `code` (as UTF-8) natively and reads the whole tree. The tree's arrays are views of the C side's
 * memory, which the next call on this thread reuses or frees: read them (and `nodeString`) before the next
 * call, copy out what must outlive it. Null when `lang` is not native, the tree is
 * deeper than the reader's bound, or its S-expression does not split into node spans — take the WASM path.
 */
export function parseFlat(code: string, lang: SyntaxLang): NativeParse | null {
  const nl = natives.get(lang);
  if (!nl || !ffi) return null;
  const bytes = encoder.encode(code);
  const { fns } = nl;
  const n = fns.faun_ts_parse(bytes, bytes.length, MAX_DEPTH);
  if (n < 1) return null;
  const cap = fns.faun_ts_cap();
  const ab = blockBuffer(nl, ffi, cap);
  const start = new Uint32Array(ab, 0, n);
  const end = new Uint32Array(ab, cap * 4, n);
  const parent = new Int32Array(ab, cap * 8, n);
  const ownOff = new Int32Array(ab, cap * 12, n);
  const ownLen = new Int32Array(ab, cap * 16, n);
  const field = new Uint16Array(ab, cap * 20, n);
  const sym = new Uint16Array(ab, cap * 22, n);
  const named = new Uint8Array(ab, cap * 24, n);
  const missing = new Uint8Array(ab, cap * 25, n);
  const stringBytes = stringBuffer(nl, ffi).subarray(0, fns.faun_ts_strings_len());
  const rootLen = fns.faun_ts_root_len();
  // ASCII (the C side refuses other bytes): Latin-1 decoding gives the same string without UTF-8 checks
  const rootString = latin1.decode(stringBytes.subarray(0, rootLen));
  const { names } = nl;
  const type: string[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const s = sym[i] as number;
    type[i] = names[s] ?? (s === 0xffff ? nl.error : s === 0xfffe ? nl.errorRepeat : String(s));
  }
  // each printed node's span of the root's S-expression, found on the C side (-3 above when they do not
  // line up)
  const sStart = new Int32Array(ab, cap * 26, n);
  const sEnd = new Int32Array(ab, cap * 30, n);
  // the rare own strings (anonymous nodes with children) are decoded now: the string memory is the C side's
  let own: Map<number, string> | null = null;
  if (stringBytes.length > rootLen) {
    own = new Map();
    for (let i = 1; i < n; i++) {
      const o = ownOff[i] as number;
      if (o >= 0) own.set(i, decoder.decode(stringBytes.subarray(o, o + (ownLen[i] as number))));
    }
  }
  const tree: FlatSyntaxTree = {
    count: n,
    type,
    named,
    missing,
    field,
    fieldNames: nl.fieldNames,
    start,
    end,
    parent,
    depth: fns.faun_ts_depth(),
    rootString,
    spanStart: sStart.subarray(0, n),
    spanEnd: sEnd.subarray(0, n),
    nodeString(i: number): string {
      if (i === 0) return rootString;
      const s = sStart[i] as number;
      if (s >= 0) return rootString.slice(s, sEnd[i] as number);
      const o = own?.get(i);
      if (o !== undefined) return o;
      throw new Error(`no S-expression for node ${i} (${type[i]}): an anonymous leaf`);
    },
  };
  return { bytes, tree };
}
