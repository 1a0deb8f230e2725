/**
 * `bun scripts/fn-length.ts [--max N] [--list] [--tests] [--allow FILE] [DIR...]`: the functions longer
 * than N lines (default 100) in the TypeScript files under DIR (default: every workspace folder and
 * scripts/), test files (`*.test.ts`) left out unless --tests, read with @babel/parser. Each function counts its own lines, nested ones included. With --allow, fails only on
 * functions not in the list (`path name`, one a line), and on listed ones that are now short enough or
 * gone (so the list can only shrink). --list prints every function over N lines, longest first.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from '@babel/parser';

export interface FnLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

type Node = {
  type: string;
  loc?: { start: { line: number }; end: { line: number } } | null;
  [key: string]: unknown;
};

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ObjectMethod',
  'ClassMethod',
  'ClassPrivateMethod',
]);

const isNode = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

function keyName(key: unknown): string | undefined {
  if (!isNode(key)) return undefined;
  if (key.type === 'Identifier' || key.type === 'PrivateName') {
    const id = key.type === 'PrivateName' ? (key.id as Node) : key;
    return typeof id.name === 'string' ? id.name : undefined;
  }
  return typeof key.value === 'string' ? key.value : undefined;
}

/** A readable name: its own, the variable or property it is assigned to, or the call it is passed to. */
function nameOf(node: Node, parent: Node | undefined): string {
  const own = keyName(node.id) ?? keyName(node.key);
  if (own) return own;
  if (parent?.type === 'VariableDeclarator') return keyName(parent.id) ?? '(anonymous)';
  if (parent?.type === 'ObjectProperty' || parent?.type === 'ClassProperty')
    return keyName(parent.key) ?? '(anonymous)';
  if (parent?.type === 'CallExpression') {
    const callee = parent.callee as Node;
    const called = keyName(callee) ?? keyName(callee?.property);
    const first = (parent.arguments as Node[])[0];
    const label = isNode(first) && typeof first.value === 'string' ? ` '${first.value}'` : '';
    return called ? `${called}(${label.trim()}) callback` : '(callback)';
  }
  return '(anonymous)';
}

/** Every function in `source` with its length in lines. */
export function functionLengths(source: string, file: string): FnLength[] {
  const ast = parse(source, {
    sourceType: 'module',
    plugins: file.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'],
  }) as unknown as Node;
  const found: FnLength[] = [];
  const stack: { v: unknown; parent: Node | undefined }[] = [{ v: ast, parent: undefined }];
  while (stack.length > 0) {
    const { v, parent } = stack.pop()!;
    if (Array.isArray(v)) {
      for (const x of v) stack.push({ v: x, parent });
      continue;
    }
    if (!isNode(v)) continue;
    if (FUNCTION_TYPES.has(v.type) && v.loc) {
      const lines = v.loc.end.line - v.loc.start.line + 1;
      found.push({ file, name: nameOf(v, parent), line: v.loc.start.line, lines });
    }
    for (const [key, child] of Object.entries(v)) {
      if (key !== 'loc' && key !== 'comments' && typeof child === 'object' && child !== null)
        stack.push({ v: child, parent: v });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}

const SKIP = new Set(['node_modules', 'dist', 'out', '.git']);

function tsFiles(root: string, dir: string, tests: boolean): string[] {
  const out: string[] = [];
  const walk = (abs: string) => {
    for (const entry of readdirSync(abs).sort()) {
      if (SKIP.has(entry)) continue;
      const path = join(abs, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') && (tests || !/\.test\.tsx?$/.test(entry)))
        out.push(relative(root, path));
    }
  };
  walk(join(root, dir));
  return out;
}

/** The functions over `max` lines under `dirs` (relative to `root`), longest first. */
export function longFunctions(root: string, dirs: string[], max: number, tests = false): FnLength[] {
  return dirs
    .flatMap((d) => tsFiles(root, d, tests))
    .flatMap((f) => functionLengths(readFileSync(join(root, f), 'utf8'), f))
    .filter((f) => f.lines > max)
    .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
}

export const keyOf = (f: FnLength) => `${f.file} ${f.name}`;

if (import.meta.main) {
  const root = join(import.meta.dir, '..');
  const args = process.argv.slice(2);
  const flag = (name: string) => {
    const i = args.indexOf(name);
    if (i < 0) return undefined;
    const v = args[i + 1];
    args.splice(i, 2);
    return v;
  };
  const max = Number(flag('--max') ?? 100);
  const allowFile = flag('--allow');
  const list = args.includes('--list');
  const tests = args.includes('--tests');
  const dirs = args.filter((a) => a !== '--list' && a !== '--tests');
  if (!Number.isInteger(max) || max < 1) {
    console.error('fn-length: --max takes a whole number of lines, e.g. --max 100');
    process.exit(2);
  }
  const long = longFunctions(root, dirs.length ? dirs : ['packages', 'apps', 'bench', 'scripts'], max, tests);
  const allow = new Set(
    allowFile && existsSync(join(root, allowFile))
      ? readFileSync(join(root, allowFile), 'utf8')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith('#'))
      : [],
  );
  const fresh = long.filter((f) => !allow.has(keyOf(f)));
  const gone = [...allow].filter((k) => !long.some((f) => keyOf(f) === k));
  for (const f of list ? long : fresh) console.error(`${f.file}:${f.line}  ${f.name}  ${f.lines} lines`);
  for (const k of gone)
    console.error(`${allowFile}: '${k}' is ${max} lines or fewer now (or gone); remove the line`);
  console.log(
    `functions over ${max} lines: ${long.length} (${fresh.length} not allowed, ${gone.length} stale)`,
  );
  process.exit(fresh.length + gone.length === 0 ? 0 : 1);
}
