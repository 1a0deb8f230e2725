/**
 * One tree-sitter Parser per language, created lazily: `initSyntax` loads the runtime and grammars once
 * (async); afterwards `getParser`/`parseCode` are synchronous. The runtime is patched to parse UTF-8 (see
 * utf8-runtime.ts), so trees and error recovery match tree-sitter's native bindings.
 */
import type Parser from 'web-tree-sitter';
import { setRuntimeModule } from './fast-cursor.ts';
import type { SyntaxLang } from './languages.ts';
import { type GrammarLoader, nodeGrammarLoader, nodeRuntimeLoader, type RuntimeLoader } from './loader.ts';
import { isNative, loadNative, type NativeMode } from './native.ts';
import { patchRuntimeForUtf8, utf8Input } from './utf8-runtime.ts';

/** A parse tree (web-tree-sitter 0.24). */
export type Tree = Parser.Tree;
/** A cursor over a parse tree. */
export type TreeCursor = Parser.TreeCursor;
/** A syntax node. */
export type Node = Parser.SyntaxNode;
type Language = Parser.Language;

/** web-tree-sitter's module, once {@link initSyntax} has loaded the runtime. */
let TS: typeof Parser | null = null;
let runtime: Promise<void> | null = null;
const languages = new Map<SyntaxLang, Language>();
const pending = new Map<SyntaxLang, Promise<Language>>();
const parsers = new Map<SyntaxLang, Parser>();

/** Options of {@link initSyntax}. */
export interface InitSyntaxOptions {
  /** Supplies grammar bytes; defaults to reading the installed npm packages (Node/Bun). */
  loader?: GrammarLoader;
  /** Supplies the runtime bytes; defaults to the installed web-tree-sitter package (Node/Bun). */
  runtimeLoader?: RuntimeLoader;
  /**
   * Also make the grammars parse natively for `parseFlat` (native.ts `loadNative`): `auto` (default) loads
   * built libraries and builds missing ones in the background, `wait` builds them first, `off` never.
   * `FAUN_SYNTAX_NATIVE=0` switches it off; without a C compiler or off Bun the WASM path is used alone.
   */
  native?: NativeMode;
  /**
   * `eager` (default): load the WebAssembly runtime and grammars for every language. `lazy`: only for the
   * languages that do not parse natively; the others are loaded on demand — a call that needs one throws
   * {@link GrammarNotLoadedError}, after which `initSyntax([lang])` loads it and the call can be repeated.
   * Saves loading the runtime (~45 ms per process or worker) when the native parser serves every text.
   */
  wasm?: 'eager' | 'lazy';
}

/** A WebAssembly grammar is needed but not loaded: `await initSyntax([lang])`, then try again. */
export class GrammarNotLoadedError extends Error {
  override name = 'GrammarNotLoadedError';
  constructor(readonly lang: SyntaxLang) {
    super(`tree-sitter grammar for ${lang} is not loaded — await initSyntax(['${lang}']) first`);
  }
}

/** Bytes of the runtime's C stack after {@link enlargeStack} (the build's own stack is 64 KiB). */
export const RUNTIME_STACK_BYTES = 8 * 1024 * 1024;

/**
 * tree-sitter prints S-expressions recursively; with the build's 64 KiB stack a tree ~140 levels deep
 * overflows it and silently corrupts the heap. Move the stack pointer to the top of a large heap block (the
 * stack grows down into it); nothing is on the stack while JS runs between calls.
 */
function enlargeStack(module: Record<string, unknown>, stackPointer: WebAssembly.Global): void {
  const malloc = module._malloc as ((n: number) => number) | undefined;
  if (typeof malloc !== 'function') throw new Error('web-tree-sitter runtime lacks malloc');
  const base = malloc(RUNTIME_STACK_BYTES);
  if (!base) throw new Error('could not allocate the tree-sitter stack');
  stackPointer.value = (base + RUNTIME_STACK_BYTES) & ~15;
}

/** Loads the tree-sitter runtime and the given grammars (each only once; concurrent calls share work). */
export async function initSyntax(langs: readonly SyntaxLang[], opts: InitSyntaxOptions = {}): Promise<void> {
  if (opts.wasm === 'lazy') {
    await loadNative(langs, opts.native ?? 'auto');
    const rest = langs.filter((l) => !isNative(l));
    if (rest.length > 0) await initSyntax(rest, { ...opts, wasm: 'eager' });
    return;
  }
  runtime ??= (async () => {
    // loaded here, not at import: a process that parses natively never needs it
    TS = (await import('web-tree-sitter')).default;
    const wasm = patchRuntimeForUtf8(await (opts.runtimeLoader ?? nodeRuntimeLoader)());
    let module: Record<string, unknown> | null = null;
    let stackPointer: WebAssembly.Global | null = null;
    await TS.init({
      // instantiate here to get hold of the stack pointer (see enlargeStack)
      instantiateWasm(
        imports: { env: Record<string, unknown> },
        receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
      ) {
        stackPointer = imports.env.__stack_pointer as WebAssembly.Global;
        imports.env.tree_sitter_parse_callback = directReadCallback(
          imports.env.tree_sitter_parse_callback as ReadCallback,
          () => module,
        );
        WebAssembly.instantiate(wasm, imports as unknown as WebAssembly.Imports).then(
          ({ instance, module }) => receive(instance, module),
        );
        return {};
      },
      // emscripten calls postRun hooks with the module (the library keeps onRuntimeInitialized for itself)
      postRun: [
        (m: Record<string, unknown>) => {
          module = m;
        },
      ],
    });
    if (!module || !stackPointer) throw new Error('web-tree-sitter runtime did not report its module');
    enlargeStack(module, stackPointer);
    setRuntimeModule(module, stackPointer);
  })();
  try {
    await runtime;
  } catch (e) {
    runtime = null;
    throw e;
  }
  const loader = opts.loader ?? nodeGrammarLoader;
  await Promise.all(
    langs.map((lang) => {
      if (languages.has(lang)) return Promise.resolve();
      let p = pending.get(lang);
      if (!p) {
        p = loader(lang).then((bytes) => (TS as typeof Parser).Language.load(bytes));
        pending.set(lang, p);
        p.then(
          (l) => languages.set(lang, l),
          () => pending.delete(lang),
        );
      }
      return p;
    }),
  );
  await loadNative(langs, opts.native ?? 'auto');
}

/** True when `lang`'s grammar has been loaded by {@link initSyntax}. */
export function isLoaded(lang: SyntaxLang): boolean {
  return languages.has(lang);
}

/** The shared parser of a loaded language; throws saying to call `initSyntax` first otherwise. */
export function getParser(lang: SyntaxLang): Parser {
  let parser = parsers.get(lang);
  if (parser) return parser;
  const language = languages.get(lang);
  if (!language) throw new GrammarNotLoadedError(lang);
  parser = new (TS as typeof Parser)();
  parser.setLanguage(language);
  parsers.set(lang, parser);
  return parser;
}

type ReadCallback = (
  buffer: number,
  index: number,
  row: number,
  column: number,
  lengthAddress: number,
) => void;

/** UTF-8 bytes being parsed by {@link parseCode} (read by the runtime straight from here), else null. */
let directInput: Uint8Array | null = null;

/** Largest chunk handed to the runtime per read: its 10 KiB input buffer (as `utf8Input` chunks it). */
const CHUNK = 10 * 1024 - 2;

/**
 * The runtime's read callback, replaced so that {@link parseCode} copies UTF-8 bytes into the input buffer
 * directly instead of going through a JS string per chunk. Other parses use the library's callback.
 */
function directReadCallback(
  original: ReadCallback,
  module: () => Record<string, unknown> | null,
): ReadCallback {
  return (buffer, index, row, column, lengthAddress) => {
    const bytes = directInput;
    const m = module();
    if (!bytes || !m) {
      original(buffer, index, row, column, lengthAddress);
      return;
    }
    const len = index >= bytes.length ? 0 : Math.min(bytes.length - index, CHUNK);
    if (len > 0) (m.HEAPU8 as Uint8Array).set(bytes.subarray(index, index + len), buffer);
    (m.HEAP32 as Int32Array)[lengthAddress >> 2] = len;
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * A parse result. Offsets are UTF-8 byte offsets: read them from a TreeCursor (`startIndex`/`endIndex`,
 * rows from `startPosition.row`) and get text with {@link ParsedCode.text}. The Node API's `text`, `startIndex`
 * and columns do not apply. Call `delete()` when done (trees live in wasm memory).
 */
export interface ParsedCode {
  tree: Tree;
  /** The UTF-8 encoding of the parsed code. */
  bytes: Uint8Array;
  /** The source text between two byte offsets. */
  text(startByte: number, endByte: number): string;
  /** A cursor at the root (owned by the caller; `delete()` it). */
  walk(): TreeCursor;
  delete(): void;
}

/** Parses `code` (as UTF-8) with the language's shared parser. */
export function parseCode(code: string, lang: SyntaxLang): ParsedCode {
  const bytes = encoder.encode(code);
  const parser = getParser(lang);
  let tree: Tree | null;
  directInput = bytes;
  try {
    tree = parser.parse(utf8Input(bytes));
  } finally {
    directInput = null;
  }
  if (!tree) throw new Error(`tree-sitter returned no tree for ${lang} input of ${code.length} chars`);
  return {
    tree,
    bytes,
    text: (s, e) => decoder.decode(bytes.subarray(s, e)),
    walk: () => tree.walk(),
    delete: () => tree.delete(),
  };
}
