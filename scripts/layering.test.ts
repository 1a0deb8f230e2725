import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkTree } from './layering/check.ts';
import { floorsFrom, folderFloorsFrom, judge, missingFolders } from './layering.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A workspace with two packages: `low` (floor 1) and `high` (floor 2), plus the given source files. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'layering-'));
  dirs.push(root);
  const all: Record<string, string> = {
    'package.json': JSON.stringify({ name: 'w', workspaces: ['packages/*'] }),
    'packages/low/package.json': JSON.stringify({ name: '@w/low', exports: { '.': './src/index.ts' } }),
    'packages/high/package.json': JSON.stringify({ name: '@w/high', exports: { '.': './src/index.ts' } }),
    'packages/low/src/index.ts': 'export const low = 1;\n',
    'packages/high/src/index.ts': "import { low } from '@w/low';\nexport const high = low + 1;\n",
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const FLOORS = [['high'], ['low']];
const kinds = (root: string) => checkTree(root, FLOORS).map((f) => `${f.kind} ${f.at}`);

describe('layering check', () => {
  test('a clean tree has no findings', () => {
    expect(kinds(tree({}))).toEqual([]);
  });

  test('a runtime import circle is caught, a type-only one is not', () => {
    const root = tree({
      'packages/low/src/a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
      'packages/low/src/b.ts': "import { a } from './a.ts';\nexport const b = () => a;\n",
      'packages/low/src/c.ts': "import type { D } from './d.ts';\nexport type C = D;\n",
      'packages/low/src/d.ts': "import type { C } from './c.ts';\nexport type D = C | 1;\n",
    });
    const found = checkTree(root, FLOORS);
    expect(found.map((f) => f.key)).toEqual(['circle packages/low/src/a.ts packages/low/src/b.ts']);
  });

  test('a deep import by path or by an unexported subpath is caught', () => {
    const root = tree({
      'packages/high/src/x.ts': "import { low } from '../../low/src/index.ts';\nexport const x = low;\n",
      'packages/high/src/y.ts': "import type { T } from '@w/low/src/t.ts';\nexport type Y = T;\n",
      'packages/low/src/t.ts': 'export type T = number;\n',
    });
    expect(kinds(root)).toEqual(['deep packages/high/src/x.ts:1', 'deep packages/high/src/y.ts:1']);
  });

  test('an arrow up the floors, or across one floor, is caught', () => {
    const root = tree({
      'packages/low/src/up.ts': "import { high } from '@w/high';\nexport const up = high;\n",
    });
    expect(kinds(root)).toEqual(['floor packages/low/src/up.ts:1']);
    expect(checkTree(root, [['high', 'low']]).map((f) => f.kind)).toEqual(['floor', 'floor']);
    expect(checkTree(root, [['high']])[0]?.message).toContain('on no floor');
  });

  test('the floors block is read from markdown; the allow-list may only shrink', () => {
    expect(floorsFrom('# x\n```floors\ncli  # top\nkit schema\n```\n', 'N.md')).toEqual([
      ['cli'],
      ['kit', 'schema'],
    ]);
    expect(() => floorsFrom('no block', 'N.md')).toThrow('N.md: no ```floors block');
    const root = tree({
      'packages/low/src/up.ts': "import { high } from '@w/high';\nexport const up = high;\n",
    });
    const found = checkTree(root, FLOORS);
    expect(judge(found, [found[0]!.key])).toEqual({ fresh: [], stale: [], allowed: 1 });
    expect(judge([], ['floor gone'])).toEqual({ fresh: [], stale: ['floor gone'], allowed: 0 });
  });

  test('a runtime import from a lower folder of a package to a higher one is caught, naming both files', () => {
    const folders = [{ dir: 'packages/low/src', order: ['base', 'top', '.'], source: 'F.txt' }];
    const root = tree({
      'packages/low/src/base/a.ts': "import { b } from '../top/b.ts';\nexport const a = b;\n",
      'packages/low/src/base/c.ts': "import type { B } from '../top/b.ts';\nexport type C = B;\n",
      'packages/low/src/base/c.test.ts': "import { b } from '../top/b.ts';\nexport const t = b;\n",
      'packages/low/src/top/b.ts':
        "import { d } from '../base/d.ts';\nexport const b = d;\nexport type B = 1;\n",
      'packages/low/src/base/d.ts': 'export const d = 1;\n',
      'packages/low/src/odd/e.ts': "import { d } from '../base/d.ts';\nexport const e = d;\n",
    });
    const found = checkTree(root, FLOORS, folders);
    expect(found.map((f) => `${f.kind} ${f.at}`)).toEqual([
      'folder packages/low/src/base/a.ts:1',
      'folder packages/low/src/odd/e.ts:1',
    ]);
    expect(found[0]!.message).toBe(
      'packages/low/src/base/a.ts imports packages/low/src/top/b.ts at runtime, but base/ sits below top/ ' +
        '(F.txt: packages/low/src base < top < .); move the shared code down to base/ or lower, or pass it in',
    );
    expect(found[1]!.message).toContain("folder 'odd' of packages/low/src is on no floor");
    expect(checkTree(root, FLOORS).map((f) => f.kind)).toEqual([]);
  });

  test('folder floors are read one package a line, lowest first; a listed folder that is gone is named', () => {
    expect(folderFloorsFrom('# c\npkg/src: a b .  # top\n', 'F.txt')).toEqual([
      { dir: 'pkg/src', order: ['a', 'b', '.'], source: 'F.txt' },
    ]);
    expect(() => folderFloorsFrom('pkg/src a b\n', 'F.txt')).toThrow("F.txt:1: expected 'package/src:");
    expect(() => folderFloorsFrom('pkg/src: a b a\n', 'F.txt')).toThrow(
      "F.txt:1: folder 'a' is listed twice",
    );
    const root = tree({ 'packages/low/src/a/x.ts': 'export const x = 1;\n' });
    expect(missingFolders(root, folderFloorsFrom('packages/low/src: a gone .\n', 'F.txt'))).toEqual([
      'F.txt: packages/low/src/gone does not exist; update the packages/low/src line',
    ]);
  });

  test("the harness README's floor plan draws its folders in the checked order, highest first", () => {
    const root = join(import.meta.dir, '..');
    const rule = folderFloorsFrom(readFileSync(join(root, 'scripts/layering-folders.txt'), 'utf8'), 'F')[0]!;
    const readme = readFileSync(join(root, 'packages/harness/README.md'), 'utf8');
    const plan = /## Floor plan\n[\s\S]*?```\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const drawn = [...plan.matchAll(/^([a-z-]+)\/ /gm)].map((m) => m[1]);
    expect(rule.dir).toBe('packages/harness/src');
    expect(drawn).toEqual(rule.order.filter((f) => f !== '.').reverse());
  });
});
