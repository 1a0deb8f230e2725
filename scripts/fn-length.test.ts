import { expect, test } from 'bun:test';
import { functionLengths } from './fn-length.ts';

const body = (n: number) => Array.from({ length: n }, (_, i) => `  x += ${i};`).join('\n');

test('every kind of function is measured in lines and named by what it is bound to', () => {
  const src = [
    `export function named() {\n${body(3)}\n}`,
    `const arrow = async () => {\n${body(1)}\n};`,
    `class K {\n  method() {\n${body(2)}\n  }\n}`,
    `const o = { run(ctx) {\n${body(4)}\n}, go: function () { return 1; } };`,
    `describe('group', () => {\n  x();\n});`,
  ].join('\n');
  const got = functionLengths(src, 'f.ts').map((f) => `${f.name} ${f.lines}`);
  expect(got).toEqual(['named 5', 'arrow 3', 'method 4', 'run 6', 'go 1', "describe('group') callback 3"]);
});
