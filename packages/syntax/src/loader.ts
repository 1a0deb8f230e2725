/**
 * Where the .wasm bytes come from. The default loaders read them from the installed npm packages (Node/Bun
 * only, imported lazily); a browser passes its own loaders (e.g. ones that fetch URLs).
 */
import type { SyntaxLang } from './languages.ts';
import { GRAMMAR_FILES } from './languages.ts';

/** Supplies the bytes of a grammar's .wasm file. */
export type GrammarLoader = (lang: SyntaxLang) => Promise<Uint8Array>;

/** Supplies the bytes of the web-tree-sitter runtime (`tree-sitter.wasm` of the web-tree-sitter package). */
export type RuntimeLoader = () => Promise<Uint8Array>;

async function readPackageFile(spec: string): Promise<Uint8Array> {
  const { createRequire } = await import('node:module');
  const { readFile } = await import('node:fs/promises');
  const require = createRequire(import.meta.url);
  let path: string;
  try {
    path = require.resolve(spec);
  } catch (cause) {
    throw new Error(`${spec} not found — run \`bun install\` in the workspace root`, { cause });
  }
  return new Uint8Array(await readFile(path));
}

/** Reads the grammar .wasm shipped in the pinned npm package, resolved from this package's folder. */
export const nodeGrammarLoader: GrammarLoader = (lang) => {
  const { pkg, file } = GRAMMAR_FILES[lang];
  return readPackageFile(`${pkg}/${file}`);
};

/** Reads the runtime .wasm of the installed web-tree-sitter package. */
export const nodeRuntimeLoader: RuntimeLoader = () => readPackageFile('web-tree-sitter/tree-sitter.wasm');
