/**
 * @faun/syntax — tree-sitter parsing through WebAssembly (web-tree-sitter) for Python, Java, JavaScript,
 * TypeScript/TSX and Go, with grammars pinned to the versions the metrics were verified against.
 * @module
 */
export { codeSignature, isCommentOrStringOnlyChange, isCommentOrStringOnlyDiff } from './change.ts';
export { type FastCursor, fastCursor, TreeTooDeepError } from './fast-cursor.ts';
export { detectLanguage, GRAMMAR_FILES, isSyntaxLang, SYNTAX_LANGS, type SyntaxLang } from './languages.ts';
export { type GrammarLoader, nodeGrammarLoader, nodeRuntimeLoader, type RuntimeLoader } from './loader.ts';
export {
  isNative,
  loadNative,
  type NativeMode,
  type NativeParse,
  nativeExpected,
  nativeStatus,
  parseFlat,
} from './native.ts';
export {
  GrammarNotLoadedError,
  getParser,
  type InitSyntaxOptions,
  initSyntax,
  isLoaded,
  type Node,
  type ParsedCode,
  parseCode,
  RUNTIME_STACK_BYTES,
  type Tree,
  type TreeCursor,
} from './parsers.ts';
export { sexpSpans } from './sexp-spans.ts';
export { type FlatSyntaxTree, MAX_READ_DEPTH, readTree } from './tree-reader.ts';
export { patchRuntimeForUtf8, utf8Input } from './utf8-runtime.ts';
