/**
 * One tree-sitter Parser per language, created lazily: `initSyntax` loads the runtime and grammars once
 * (async); afterwards `getParser`/`parseCode` are synchronous.
 */
import { Language, Parser, type Tree } from 'web-tree-sitter';
import type { SyntaxLang } from './languages.ts';
import { type GrammarLoader, nodeGrammarLoader } from './loader.ts';

let runtime: Promise<void> | null = null;
const languages = new Map<SyntaxLang, Language>();
const pending = new Map<SyntaxLang, Promise<Language>>();
const parsers = new Map<SyntaxLang, Parser>();

/** Options of {@link initSyntax}. */
export interface InitSyntaxOptions {
  /** Supplies grammar bytes; defaults to reading the installed npm packages (Node/Bun). */
  loader?: GrammarLoader;
  /** Passed to the runtime's init (e.g. `locateFile` for the runtime .wasm in a browser). */
  runtimeOptions?: Record<string, unknown>;
}

/** Loads the tree-sitter runtime and the given grammars (each only once; concurrent calls share work). */
export async function initSyntax(langs: readonly SyntaxLang[], opts: InitSyntaxOptions = {}): Promise<void> {
  runtime ??= Parser.init(opts.runtimeOptions);
  await runtime;
  const loader = opts.loader ?? nodeGrammarLoader;
  await Promise.all(
    langs.map((lang) => {
      if (languages.has(lang)) return Promise.resolve();
      let p = pending.get(lang);
      if (!p) {
        p = loader(lang).then((bytes) => Language.load(bytes));
        pending.set(lang, p);
        p.then(
          (l) => languages.set(lang, l),
          () => pending.delete(lang),
        );
      }
      return p;
    }),
  );
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
  if (!language) {
    throw new Error(`tree-sitter grammar for ${lang} is not loaded — await initSyntax(['${lang}']) first`);
  }
  parser = new Parser();
  parser.setLanguage(language);
  parsers.set(lang, parser);
  return parser;
}

/**
 * Parses `code` with the language's shared parser. The caller owns the returned tree and should call
 * `tree.delete()` when done (trees live in wasm memory).
 */
export function parseCode(code: string, lang: SyntaxLang): Tree {
  const tree = getParser(lang).parse(code);
  if (!tree) throw new Error(`tree-sitter returned no tree for ${lang} input of ${code.length} chars`);
  return tree;
}
