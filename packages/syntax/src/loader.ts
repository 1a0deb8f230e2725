/**
 * Where the grammar and runtime .wasm bytes come from. The default loader reads them from the installed
 * npm packages (Node/Bun only, imported lazily); a browser passes its own loader (e.g. one that fetches URLs).
 */
import type { SyntaxLang } from './languages.ts';
import { GRAMMAR_FILES } from './languages.ts';

/** Supplies the bytes of a grammar's .wasm file. */
export type GrammarLoader = (lang: SyntaxLang) => Promise<Uint8Array>;

/** Reads the grammar .wasm shipped in the pinned npm package, resolved from this package's folder. */
export const nodeGrammarLoader: GrammarLoader = async (lang) => {
  const { pkg, file } = GRAMMAR_FILES[lang];
  const { createRequire } = await import('node:module');
  const { readFile } = await import('node:fs/promises');
  const require = createRequire(import.meta.url);
  let path: string;
  try {
    path = require.resolve(`${pkg}/${file}`);
  } catch (cause) {
    throw new Error(`grammar file ${pkg}/${file} not found — run \`bun install\` in the workspace root`, {
      cause,
    });
  }
  return new Uint8Array(await readFile(path));
};
