/**
 * The layering rules of a Bun workspace, checked over its source files:
 * - circle: files that import each other at runtime, directly or round a loop;
 * - deep: an import that reaches into another package by path, or names a subpath its package.json
 *   `exports` does not list (cross-package imports go through the package name and its exports);
 * - floor: an import from a package to one on the same floor or a higher one (floors: highest first);
 * - folder: inside a package with folder floors, a runtime import from a file in one folder to a file in a
 *   higher folder (type-only imports vanish at runtime and tests exercise a stage with what sits above it,
 *   so neither is checked).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { importsOf } from './imports.ts';

export type FindingKind = 'circle' | 'deep' | 'floor' | 'folder';

export interface Finding {
  kind: FindingKind;
  /** Stable identity (no line numbers), as written in an allow-list. */
  key: string;
  /** `file:line`, for the reader. */
  at: string;
  message: string;
}

export interface Workspace {
  /** Folder relative to the root, e.g. `packages/kit`. */
  dir: string;
  /** Folder name, the name used on the floors, e.g. `kit`. */
  short: string;
  name: string;
  exports: Record<string, string>;
}

/** The folders of one package's source, lowest first; `.` stands for the files directly in `dir`. */
export interface FolderFloors {
  /** Relative to the root, e.g. `packages/harness/src`. */
  dir: string;
  order: string[];
  /** Where the order is written, for messages. */
  source: string;
}

interface Edge {
  from: string;
  to: string;
  runtime: boolean;
}

const SKIP_DIRS = new Set(['node_modules', 'dist', 'out', '.git']);

/** The workspaces named by the root package.json (`dir/*` globs and plain folders). */
export function workspacesOf(root: string): Workspace[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const dirs: string[] = [];
  for (const pattern of manifest.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      if (!existsSync(join(root, parent))) continue;
      for (const d of readdirSync(join(root, parent)).sort()) dirs.push(`${parent}/${d}`);
    } else dirs.push(pattern);
  }
  return dirs
    .filter((d) => existsSync(join(root, d, 'package.json')))
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as {
        name: string;
        exports?: Record<string, string> | string;
      };
      const exports = typeof pkg.exports === 'string' ? { '.': pkg.exports } : (pkg.exports ?? {});
      return { dir, short: dir.split('/').pop() ?? dir, name: pkg.name, exports };
    });
}

function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(root, rel)).sort()) {
      if (SKIP_DIRS.has(entry)) continue;
      const path = `${rel}/${entry}`;
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) out.push(path);
    }
  };
  walk(dir);
  return out;
}

function resolveFile(root: string, rel: string): string | undefined {
  for (const c of [rel, rel.replace(/\.js$/, '.ts'), `${rel}.ts`, `${rel}.tsx`, `${rel}/index.ts`]) {
    if (existsSync(join(root, c)) && statSync(join(root, c)).isFile()) return c;
  }
  return undefined;
}

const ownerOf = (workspaces: Workspace[], file: string) =>
  workspaces.find((w) => file === w.dir || file.startsWith(`${w.dir}/`));

/** Strongly connected components of more than one file, or a file importing itself (iterative Tarjan). */
export function circlesOf(nodes: string[], next: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work: { v: string; i: number }[] = [{ v: start, i: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const top = work[work.length - 1]!;
      const targets = next.get(top.v) ?? [];
      if (top.i < targets.length) {
        const w = targets[top.i++]!;
        if (!index.has(w)) {
          index.set(w, counter);
          low.set(w, counter++);
          stack.push(w);
          onStack.add(w);
          work.push({ v: w, i: 0 });
        } else if (onStack.has(w)) low.set(top.v, Math.min(low.get(top.v)!, index.get(w)!));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1]!.v;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.v)!));
      }
      if (low.get(top.v) !== index.get(top.v)) continue;
      const component: string[] = [];
      for (;;) {
        const w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
        if (w === top.v) break;
      }
      if (component.length > 1 || targets.includes(top.v)) found.push(component.sort());
    }
  }
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

interface Context {
  root: string;
  workspaces: Workspace[];
  floorOf: Map<string, number>;
  folders: FolderFloors[];
  findings: Finding[];
  edges: Edge[];
}

function checkFloor(ctx: Context, file: string, line: number, spec: string, from: Workspace, to: Workspace) {
  const a = ctx.floorOf.get(from.short);
  const b = ctx.floorOf.get(to.short);
  const at = `${file}:${line}`;
  const key = `floor ${file} -> ${spec}`;
  if (a === undefined || b === undefined) {
    const missing = a === undefined ? from.short : to.short;
    ctx.findings.push({
      kind: 'floor',
      key,
      at,
      message: `'${missing}' is on no floor; add it to the floors`,
    });
  } else if (a <= b) {
    const where = a === b ? 'the same floor as' : 'a floor below';
    ctx.findings.push({
      kind: 'floor',
      key,
      at,
      message: `${from.short} is on ${where} ${to.short} and may not import it; move the shared code down`,
    });
  }
}

const folderIn = (dir: string, file: string) => {
  const rest = file.slice(dir.length + 1);
  return rest.includes('/') ? rest.slice(0, rest.indexOf('/')) : '.';
};

/** A runtime import between two folders of one package with folder floors must not point up. */
function checkFolder(ctx: Context, file: string, target: string, line: number) {
  if (/\.test\.tsx?$/.test(file)) return;
  const rule = ctx.folders.find((r) => file.startsWith(`${r.dir}/`) && target.startsWith(`${r.dir}/`));
  if (!rule) return;
  const a = folderIn(rule.dir, file);
  const b = folderIn(rule.dir, target);
  if (a === b) return;
  const [i, j] = [rule.order.indexOf(a), rule.order.indexOf(b)];
  const finding = { kind: 'folder' as const, key: `folder ${file} -> ${target}`, at: `${file}:${line}` };
  if (i < 0 || j < 0) {
    const missing = i < 0 ? a : b;
    ctx.findings.push({
      ...finding,
      message: `folder '${missing}' of ${rule.dir} is on no floor; add it to the ${rule.dir} line of ${rule.source}`,
    });
  } else if (i < j) {
    ctx.findings.push({
      ...finding,
      message:
        `${file} imports ${target} at runtime, but ${a}/ sits below ${b}/ (${rule.source}: ${rule.dir} ` +
        `${rule.order.join(' < ')}); move the shared code down to ${a}/ or lower, or pass it in`,
    });
  }
}

/** One import of `file`: records the file edge and any deep, floor or folder finding. */
function checkImport(ctx: Context, file: string, ref: { spec: string; runtime: boolean; line: number }) {
  const from = ownerOf(ctx.workspaces, file)!;
  const at = `${file}:${ref.line}`;
  if (ref.spec.startsWith('.')) {
    const target = resolveFile(ctx.root, relative(ctx.root, resolve(ctx.root, dirname(file), ref.spec)));
    if (!target) return;
    const to = ownerOf(ctx.workspaces, target);
    if (to && to !== from) {
      ctx.findings.push({
        kind: 'deep',
        key: `deep ${file} -> ${ref.spec}`,
        at,
        message: `reaches into ${to.dir} by path; import '${to.name}' (or one of its exports) instead`,
      });
      checkFloor(ctx, file, ref.line, ref.spec, from, to);
    }
    if (ref.runtime) checkFolder(ctx, file, target, ref.line);
    ctx.edges.push({ from: file, to: target, runtime: ref.runtime });
    return;
  }
  const to = ctx.workspaces.find((w) => ref.spec === w.name || ref.spec.startsWith(`${w.name}/`));
  if (!to) return;
  const sub = `.${ref.spec.slice(to.name.length)}`;
  const entry = to.exports[sub];
  if (!entry) {
    ctx.findings.push({
      kind: 'deep',
      key: `deep ${file} -> ${ref.spec}`,
      at,
      message: `'${sub}' is not in ${to.name}'s exports; import '${to.name}' or add an export`,
    });
  } else {
    const target = resolveFile(ctx.root, join(to.dir, entry));
    if (target) ctx.edges.push({ from: file, to: target, runtime: ref.runtime });
  }
  if (to !== from) checkFloor(ctx, file, ref.line, ref.spec, from, to);
}

/**
 * Every finding in the tree at `root`; `floors` lists package folder names, highest floor first; `folders`
 * orders the folders inside some packages.
 */
export function checkTree(root: string, floors: string[][], folders: FolderFloors[] = []): Finding[] {
  const workspaces = workspacesOf(root);
  const floorOf = new Map<string, number>();
  floors.forEach((names, i) => {
    for (const n of names) floorOf.set(n, floors.length - i);
  });
  const ctx: Context = { root, workspaces, floorOf, folders, findings: [], edges: [] };
  const files = workspaces.flatMap((w) => sourceFiles(root, w.dir));
  for (const file of files) {
    for (const ref of importsOf(readFileSync(join(root, file), 'utf8'), file)) checkImport(ctx, file, ref);
  }
  const next = new Map<string, string[]>();
  for (const e of ctx.edges) {
    if (!e.runtime) continue;
    const list = next.get(e.from) ?? [];
    if (!list.includes(e.to)) list.push(e.to);
    next.set(e.from, list);
  }
  for (const circle of circlesOf(files, next)) {
    ctx.findings.push({
      kind: 'circle',
      key: `circle ${circle.join(' ')}`,
      at: circle[0]!,
      message: `${circle.length} files import each other at runtime: ${circle.join(', ')}`,
    });
  }
  const seen = new Set<string>();
  return ctx.findings
    .filter((f) => !seen.has(f.key) && seen.add(f.key))
    .sort((a, b) => a.kind.localeCompare(b.kind) || a.key.localeCompare(b.key));
}

/** Package-to-package arrows (`a -> b`), for drawing or checking the floors. */
export function packageArrows(root: string): string[] {
  const workspaces = workspacesOf(root);
  const ctx: Context = { root, workspaces, floorOf: new Map(), folders: [], findings: [], edges: [] };
  for (const file of workspaces.flatMap((w) => sourceFiles(root, w.dir))) {
    for (const ref of importsOf(readFileSync(join(root, file), 'utf8'), file)) checkImport(ctx, file, ref);
  }
  const arrows = new Set<string>();
  for (const e of ctx.edges) {
    const a = ownerOf(workspaces, e.from)!;
    const b = ownerOf(workspaces, e.to);
    if (b && a !== b) arrows.add(`${a.short} -> ${b.short}`);
  }
  return [...arrows].sort();
}
