import { beforeAll, expect, test } from 'bun:test';
import { initSyntax, parseCode } from './parsers.ts';

beforeAll(async () => {
  await initSyntax(['python', 'go', 'java']);
});

/** Leaves as `type=text`, text sliced from the UTF-8 bytes by the cursor's byte offsets. */
function leaves(code: string, lang: 'python' | 'go' | 'java'): string[] {
  const p = parseCode(code, lang);
  const c = p.walk();
  const out: string[] = [];
  const visit = () => {
    if (!c.gotoFirstChild()) {
      out.push(`${c.nodeType}=${p.text(c.startIndex, c.endIndex)}`);
      return;
    }
    do visit();
    while (c.gotoNextSibling());
    c.gotoParent();
  };
  visit();
  c.delete();
  p.delete();
  return out;
}

test('cursor offsets are UTF-8 byte offsets, also after multi-byte text and a leading tab', () => {
  expect(leaves('s = "é"; y = s\n', 'python')).toEqual([
    'identifier=s',
    '===',
    'string_start="',
    'string_content=é',
    'string_end="',
    ';=;',
    'identifier=y',
    '===',
    'identifier=s',
  ]);
  expect(leaves('\tdelims := render.Delims\n', 'go')).toEqual([
    'identifier=delims',
    ':==:=',
    'identifier=render',
    '.=.',
    'field_identifier=Delims',
  ]);
  const p = parseCode('x = "𝑥"\n', 'python');
  expect(p.bytes.length).toBe(11);
  p.delete();
});

test('inputs larger than one 10 KiB read chunk parse whole, with characters across chunk edges', () => {
  // 3-byte characters put chunk edges inside characters
  const line = 'x = "€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€€"\n';
  const code = line.repeat(600);
  const p = parseCode(code, 'python');
  expect(p.tree.rootNode.hasError).toBe(false);
  expect(p.tree.rootNode.childCount).toBe(600);
  p.delete();
  const texts = leaves(code, 'python').filter((l) => l.startsWith('string_content='));
  expect(texts.length).toBe(600);
  expect(new Set(texts)).toEqual(new Set([`string_content=${'€'.repeat(40)}`]));
});

test('error recovery follows UTF-8 byte costs (as the native bindings do)', () => {
  // a Java hunk cut out of a class: with UTF-16 input (twice the byte counts) the same runtime recovers into
  // `(program (import_declaration …) (method_declaration … body: (block (if_statement …` instead
  const hunk =
    'import com.google.gson.stream.MalformedJsonException;\n  public JsonElement next() throws JsonParseException {\n' +
    '    if (!hasNext()) {\n  public boolean hasNext() {\n    synchronized (lock) {';
  const p = parseCode(hunk, 'java');
  const s = p.tree.rootNode.toString();
  p.delete();
  expect(s.startsWith('(ERROR (import_declaration')).toBe(true);
  expect(s).not.toContain('method_declaration');
  expect(s).not.toContain('if_statement');
});
