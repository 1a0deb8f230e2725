/**
 * The import specifiers of one TypeScript file, read with @babel/parser: static imports, re-exports,
 * `import()` calls and `import('x').T` types, each marked runtime or type-only (type-only imports vanish
 * at runtime, so they cannot close a runtime circle, but they still count as a dependency).
 */
import { parse } from '@babel/parser';

export interface ImportRef {
  spec: string;
  /** false for `import type`, `export type`, imports whose every name is a type, and `import('x').T`. */
  runtime: boolean;
  line: number;
}

type Node = { type: string; loc?: { start: { line: number } } | null; [key: string]: unknown };

const isNode = (v: unknown): v is Node =>
  typeof v === 'object' && v !== null && typeof (v as Node).type === 'string';

const literal = (v: unknown): string | undefined =>
  isNode(v) && v.type === 'StringLiteral' && typeof v.value === 'string' ? v.value : undefined;

/** Whether an import/export declaration survives type erasure. */
function declarationIsRuntime(node: Node): boolean {
  if (node.importKind === 'type' || node.exportKind === 'type') return false;
  const specifiers = (node.specifiers as Node[] | undefined) ?? [];
  if (node.type !== 'ImportDeclaration' || specifiers.length === 0) return true;
  return specifiers.some((s) => s.importKind !== 'type');
}

function refOf(node: Node): ImportRef | undefined {
  const line = node.loc?.start.line ?? 0;
  switch (node.type) {
    case 'ImportDeclaration':
    case 'ExportNamedDeclaration':
    case 'ExportAllDeclaration': {
      const spec = literal(node.source);
      return spec === undefined ? undefined : { spec, runtime: declarationIsRuntime(node), line };
    }
    case 'ImportExpression': {
      const spec = literal(node.source);
      return spec === undefined ? undefined : { spec, runtime: true, line };
    }
    case 'CallExpression': {
      const callee = node.callee as Node;
      const spec = callee?.type === 'Import' ? literal((node.arguments as Node[])[0]) : undefined;
      return spec === undefined ? undefined : { spec, runtime: true, line };
    }
    case 'TSImportType': {
      const arg = (node.source ?? node.argument) as Node;
      const spec = literal(arg) ?? literal(arg?.literal);
      return spec === undefined ? undefined : { spec, runtime: false, line };
    }
    default:
      return undefined;
  }
}

/** Every import of `source`; `file` names it in parse errors. */
export function importsOf(source: string, file: string): ImportRef[] {
  let ast: Node;
  try {
    ast = parse(source, {
      sourceType: 'module',
      plugins: file.endsWith('.tsx') ? ['typescript', 'jsx'] : ['typescript'],
    }) as unknown as Node;
  } catch (e) {
    throw new Error(`${file}: cannot be parsed (${(e as Error).message}); fix the syntax error first`);
  }
  const found: ImportRef[] = [];
  const stack: unknown[] = [ast];
  while (stack.length > 0) {
    const v = stack.pop();
    if (Array.isArray(v)) {
      for (const x of v) stack.push(x);
      continue;
    }
    if (!isNode(v)) continue;
    const ref = refOf(v);
    if (ref) found.push(ref);
    for (const [key, child] of Object.entries(v)) {
      if (key !== 'loc' && key !== 'comments' && typeof child === 'object' && child !== null)
        stack.push(child);
    }
  }
  return found.sort((a, b) => a.line - b.line || a.spec.localeCompare(b.spec));
}
