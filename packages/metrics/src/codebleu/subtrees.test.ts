/**
 * Syntax-match subtrees held as spans and hash keys: the same strings as the subtrees' `str(node)`, and
 * the same counts as matching the strings themselves, hash collisions included.
 */
import { beforeAll, describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sharedPath } from '@faun/kit';
import { initSyntax, parseCode, parseFlat, type SyntaxLang } from '@faun/syntax';
import { removeComments } from './comments.ts';
import { countMatches, Subtrees, stringKey } from './subtrees.ts';
import { flattenFlat, flattenTree, flattenTreeByCursor } from './tree.ts';
import type { CodeLang } from './types.ts';

const LANGS: SyntaxLang[] = ['python', 'java', 'javascript', 'typescript', 'tsx', 'go'];
beforeAll(async () => {
  await initSyntax(LANGS, { native: 'wait' });
}, 600_000);

/** The reference's count: subtrees of `of` whose string is in `within`'s list. */
function naive(of: string[], within: string[]): number {
  const set = new Set(within);
  return of.filter((s) => set.has(s)).length;
}

/** Broken code (MISSING and UNEXPECTED nodes), anonymous nodes with children, non-ASCII text. */
const CASES: [SyntaxLang, string][] = [
  ['python', 'for i in range(3:\n  print(i\nclass X(\n  é = "ü"\n'],
  ['python', 'x = a is not b and c not in d\n'],
  ['java', 'public void m() { if (x) { y = 1; else z(; }'],
  ['javascript', 'let x = { a: 1, b: [2, 3 }; /re/g.test(s) && f(x'],
  ['typescript', 'declare const s: unique symbol; let t = a ? b : c;'],
  ['tsx', 'export const A = (p: P) => <div className="a">{p.x as string}</div>;'],
  ['go', 'func (r *R) M() { switch x := y.(type) { case int: return\n default: go f( }'],
];

const texts = (s: Subtrees) => Array.from({ length: s.length }, (_, i) => s.text(i));
/** The same, in a fixed order (the cursor walk lists them in another order; counts do not depend on it). */
const sorted = (s: Subtrees) => texts(s).sort();

/** Thue–Morse word of length 2^n over a/b, and its complement: equal hashes mod 2^32 for any odd base. */
function thueMorse(n: number): [string, string] {
  let t = 'a';
  let c = 'b';
  for (let i = 0; i < n; i++) [t, c] = [t + c, c + t];
  return [t, c];
}

describe('Subtrees', () => {
  test('a hash collision never counts as a match; the equal string behind the same key still does', () => {
    const [t, c] = thueMorse(8);
    expect(t).not.toBe(c);
    expect(stringKey(t)).toBe(stringKey(c)); // the collision is real
    const only = Subtrees.fromStrings([c]);
    expect(countMatches(Subtrees.fromStrings([t]), only)).toBe(0);
    expect(countMatches(Subtrees.fromStrings([t, c, t]), Subtrees.fromStrings([c, t]))).toBe(3);
    // spans of a longer string give the keys of equal whole strings
    const root = `(x ${t} ${c})`;
    const spans = Subtrees.fromSpans(
      root,
      Int32Array.of(0, 3, 4 + t.length),
      Int32Array.of(root.length, 3 + t.length, 4 + t.length + c.length),
      null,
    );
    expect(texts(spans)).toEqual([root, t, c]);
    expect(spans.keys[1]).toBe(stringKey(t));
    expect(countMatches(Subtrees.fromStrings([t]), spans)).toBe(1);
    expect(countMatches(spans, Subtrees.fromStrings([c, 'y']))).toBe(1);
  });

  test('native and WebAssembly trees give the cursor walk strings; counts equal matching the strings', () => {
    const rows: [SyntaxLang, string][] = [...CASES];
    const dev = sharedPath('data/metrics/codebleu-dev.jsonl');
    if (dev === null) throw new Error('../shared/data/metrics/codebleu-dev.jsonl is missing (CI has it)');
    for (const line of readFileSync(dev, 'utf8').split('\n').filter(Boolean).slice(0, 120)) {
      const r = JSON.parse(line) as { lang: CodeLang; hyp: string; ref: string };
      for (const t of [r.hyp, r.ref]) rows.push([r.lang, removeComments(t, r.lang)]);
    }
    let compared = 0;
    let withMatches = 0;
    let nativeTrees = 0;
    const lists: string[][] = [];
    for (const [lang, code] of rows) {
      const parsed = parseCode(code, lang);
      const byCursor = sorted(flattenTreeByCursor(parsed).subtrees);
      expect(sorted(flattenTree(parsed).subtrees)).toEqual(byCursor);
      parsed.delete();
      const native = parseFlat(code, lang);
      if (native) {
        expect(sorted(flattenFlat(native.tree).subtrees)).toEqual(byCursor);
        nativeTrees++;
      }
      lists.push(byCursor);
    }
    for (let i = 0; i + 1 < lists.length; i++) {
      const a = Subtrees.fromStrings(lists[i] as string[]);
      const b = Subtrees.fromStrings(lists[i + 1] as string[]);
      const want = naive(lists[i + 1] as string[], lists[i] as string[]);
      expect(countMatches(b, a)).toBe(want);
      compared++;
      if (want > 0) withMatches++;
    }
    expect(compared).toBeGreaterThan(200);
    expect(withMatches).toBeGreaterThan(50);
    // with a C compiler (as on the project's machines) the native parser is built and checked too
    if (Bun.which(process.env.FAUN_CC || 'cc') !== null) expect(nativeTrees).toBe(rows.length);
  });
});
