/** Languages the syntax package can parse, and detection by file extension. */

/** A grammar this package loads. `tsx` is the TypeScript grammar's JSX dialect. */
export type SyntaxLang = 'python' | 'java' | 'javascript' | 'typescript' | 'tsx' | 'go';

/** Every grammar, in a fixed order. */
export const SYNTAX_LANGS: readonly SyntaxLang[] = [
  'python',
  'java',
  'javascript',
  'typescript',
  'tsx',
  'go',
];

/** npm package and .wasm file of each grammar (versions pinned in package.json). */
export const GRAMMAR_FILES: Readonly<Record<SyntaxLang, { pkg: string; file: string }>> = {
  python: { pkg: 'tree-sitter-python', file: 'tree-sitter-python.wasm' },
  java: { pkg: 'tree-sitter-java', file: 'tree-sitter-java.wasm' },
  javascript: { pkg: 'tree-sitter-javascript', file: 'tree-sitter-javascript.wasm' },
  typescript: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-typescript.wasm' },
  tsx: { pkg: 'tree-sitter-typescript', file: 'tree-sitter-tsx.wasm' },
  go: { pkg: 'tree-sitter-go', file: 'tree-sitter-go.wasm' },
};

const EXTENSIONS: Readonly<Record<string, SyntaxLang>> = {
  py: 'python',
  pyi: 'python',
  java: 'java',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  go: 'go',
};

/**
 * The grammar for a file path by its extension (`src/a.tsx` → `tsx`), or null when none applies.
 * `.d.ts` files are TypeScript; `.jsx` uses the JavaScript grammar (which parses JSX).
 */
export function detectLanguage(path: string): SyntaxLang | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return null;
  return EXTENSIONS[base.slice(dot + 1).toLowerCase()] ?? null;
}

/** True when `s` names a grammar of this package. */
export function isSyntaxLang(s: string): s is SyntaxLang {
  return (SYNTAX_LANGS as readonly string[]).includes(s);
}
