/**
 * Per-language tables for reading trees from the runtime's memory (tree-sitter 0.24.7 `TSLanguage`, wasm32):
 * names, symbol metadata, the public symbol map, alias sequences and field maps. See tree-reader.ts.
 */
import type { ParsedCode } from './parsers.ts';

export const ERROR_SYMBOL = 0xffff;
const ERROR_REPEAT_SYMBOL = 0xfffe;

/** What the reader needs of one language (read once per language). */
export interface LangInfo {
  names: string[];
  /** `(name` per symbol, as the printer opens a node. */
  opens: string[];
  /** ` name: ` per field id. */
  fieldPrefixes: string[];
  /** By public symbol: visible and named (web-tree-sitter's `nodeTypeIsNamed`). */
  publicNamed: Uint8Array;
  /** By symbol: the metadata's named flag (`ts_language_symbol_metadata(..).named`). */
  metaNamed: Uint8Array;
  publicMap: Uint16Array;
  fieldNames: (string | null)[];
  hasFields: boolean;
  maxAlias: number;
  aliasSeq: number;
  slices: number;
  entries: number;
}

const langInfos = new Map<number, LangInfo>();

type Language = ReturnType<ParsedCode['tree']['getLanguage']>;

/** The tables of the language at `addr` in runtime memory (cached). */
export function langInfo(
  lang: Language,
  addr: number,
  u8: Uint8Array,
  u16: Uint16Array,
  u32: Uint32Array,
): LangInfo {
  let info = langInfos.get(addr);
  if (info) return info;
  const symbolCount = u32[(addr + 4) >> 2] as number;
  const aliasCount = u32[(addr + 8) >> 2] as number;
  const total = symbolCount + aliasCount;
  const meta = u32[(addr + 72) >> 2] as number;
  const pub = u32[(addr + 76) >> 2] as number;
  const names: string[] = [];
  const metaNamed = new Uint8Array(0x10000);
  const publicNamed = new Uint8Array(0x10000);
  const publicMap = new Uint16Array(0x10000);
  for (let id = 0; id < total; id++) {
    names.push(lang.nodeTypeForId(id) ?? '(null)');
    metaNamed[id] = u8[meta + 3 * id + 1] as number;
    publicNamed[id] = (u8[meta + 3 * id] as number) & (u8[meta + 3 * id + 1] as number);
    publicMap[id] = u16[(pub >> 1) + id] as number;
  }
  names[ERROR_SYMBOL] = 'ERROR';
  names[ERROR_REPEAT_SYMBOL] = '_ERROR';
  metaNamed[ERROR_SYMBOL] = 1;
  publicNamed[ERROR_SYMBOL] = 1;
  publicMap[ERROR_SYMBOL] = ERROR_SYMBOL;
  const fieldNames = (lang as unknown as { fields: (string | null)[] }).fields;
  info = {
    names,
    opens: names.map((name) => `(${name}`),
    fieldPrefixes: fieldNames.map((f) => ` ${f}: `),
    publicNamed,
    metaNamed,
    publicMap,
    fieldNames,
    hasFields: (u32[(addr + 32) >> 2] as number) > 0,
    maxAlias: u16[(addr + 36) >> 1] as number,
    aliasSeq: u32[(addr + 84) >> 2] as number,
    slices: u32[(addr + 64) >> 2] as number,
    entries: u32[(addr + 68) >> 2] as number,
  };
  langInfos.set(addr, info);
  return info;
}

/** `'c'` as tree-sitter's printer writes a lookahead character. */
export function charString(c: number): string {
  if (c === -1) return 'INVALID';
  if (c === 0) return "'\\0'";
  if (c === 10) return "'\\n'";
  if (c === 9) return "'\\t'";
  if (c === 13) return "'\\r'";
  if (c > 0 && c < 128 && c >= 32 && c < 127) return `'${String.fromCharCode(c)}'`;
  return String(c);
}
