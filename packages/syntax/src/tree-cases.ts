/** Source snippets whose trees the readers are checked on (tests only): valid, broken, unicode, empty. */
import type { SyntaxLang } from './languages.ts';

export const TREE_CASES: [SyntaxLang, string][] = [
  ['python', 'def f(x, y=2):\n    """doc"""\n    return x + y  # c\n'],
  ['python', 'for i in range(3:\n  print(i\nclass X(\n  é = "ü"\n'],
  ['python', 'x = f"a{b!r}c" if y else [z for z in w]\n'],
  ['java', 'class A { int f(int a) { int b = a + 1; for (int x : xs) { b += x; } return b } }'],
  ['java', 'public void m() { if (x) { y = 1; else z(; }'],
  // biome-ignore lint/suspicious/noTemplateCurlyInString: JavaScript source under test
  ['javascript', 'const a = `x${b}y`; function f({ a, b = 1 }, ...r) { return <div>{a}</div> }'],
  ['javascript', 'let x = { a: 1, b: [2, 3 }; /re/g.test(s) && f(x'],
  ['typescript', 'interface I { a?: number; } const f = <T,>(x: T): T => x; enum E { A = 1 }'],
  ['typescript', 'class C<T> implements I { private x: T; constructor(readonly y: string) { super( } }'],
  ['tsx', 'export const A = (p: P) => <div className="a">{p.x as string}</div>;'],
  [
    'go',
    'package main\nfunc f(a int) (int, error) {\n\tx := a + 1\n\tfor i := 0; i < 3; i++ { x++ }\n\treturn x, nil\n}\n',
  ],
  ['go', 'func (r *R) M() { switch x := y.(type) { case int: return\n default: go f( }'],
  // anonymous nodes with children (aliased sequences), printed on their own differently
  ['python', 'x = a is not b and c not in d\n'],
  ['typescript', 'declare const s: unique symbol; let t = a ? b : c;'],
  ['python', ''],
  ['go', '\n\n'],
];
