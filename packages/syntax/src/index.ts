/**
 * @faun/syntax — tree-sitter parsing through WebAssembly (web-tree-sitter) for Python, Java, JavaScript,
 * TypeScript/TSX and Go, with grammars pinned to the versions the metrics were verified against.
 * @module
 */
export type { Node, Tree } from 'web-tree-sitter';
export { codeSignature, isCommentOrStringOnlyChange, isCommentOrStringOnlyDiff } from './change.ts';
export { detectLanguage, GRAMMAR_FILES, isSyntaxLang, SYNTAX_LANGS, type SyntaxLang } from './languages.ts';
export { type GrammarLoader, nodeGrammarLoader } from './loader.ts';
export { getParser, type InitSyntaxOptions, initSyntax, isLoaded, parseCode } from './parsers.ts';
