/**
 * node's built-in test runner (`node --test`): TAP (`--test-reporter=tap`, preferred) and the spec
 * reporter (`✔ name (1ms)`). Nested tests get ids `parent > child`.
 */
import type { TestStatus } from '@faun/schema';
import { lines, put, type TestMap } from './common.ts';

const TAP = /^(\s*)(ok|not ok) \d+(?: - (.*?))?(?:\s+#\s*(SKIP|TODO)\b.*)?$/i;
const SUBTEST = /^(\s*)# Subtest: (.*)$/;

/** TAP stream (node, tape, node-tap): nesting from indentation (4 spaces per level). */
export function parseTap(log: string): TestMap {
  const out: TestMap = {};
  const stack: Array<{ indent: number; name: string }> = [];
  const hasChildren = new Set<string>();
  for (const raw of lines(log)) {
    const sub = SUBTEST.exec(raw);
    if (sub) {
      const indent = sub[1]!.length;
      while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
      stack.push({ indent, name: sub[2]!.trim() });
      continue;
    }
    const m = TAP.exec(raw);
    if (!m) continue;
    const indent = m[1]!.length;
    while (stack.length && stack[stack.length - 1]!.indent > indent) stack.pop();
    const parents = stack.filter((s) => s.indent < indent).map((s) => s.name);
    const name = (m[3] ?? '').trim();
    if (!name) continue;
    const id = [...parents, name].join(' > ');
    for (let i = 1; i <= parents.length; i++) hasChildren.add(parents.slice(0, i).join(' > '));
    const dir = m[4]?.toUpperCase();
    const s: TestStatus = dir === 'SKIP' || dir === 'TODO' ? 'SKIPPED' : m[2] === 'ok' ? 'PASSED' : 'FAILED';
    put(out, id, s);
    if (stack.length && stack[stack.length - 1]!.indent === indent) stack.pop();
  }
  // Suites are reported like tests; keep only leaves.
  for (const id of hasChildren) delete out[id];
  return out;
}

const SPEC = /^(\s*)(✔|✓|✖|✗|×|﹣|-)\s+(.+?)(?:\s+\([\d.]+m?s\))?(\s+#\s*(SKIP|TODO).*)?$/;

/** node's spec reporter. Suites (`▶ name`) prefix their tests. */
export function parseNodeSpec(log: string): TestMap {
  const out: TestMap = {};
  const stack: Array<{ indent: number; name: string }> = [];
  for (const raw of lines(log)) {
    const suite = /^(\s*)▶\s+(.+?)(?:\s+\([\d.]+m?s\))?$/.exec(raw);
    if (suite) {
      const indent = suite[1]!.length;
      while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
      stack.push({ indent, name: suite[2]! });
      continue;
    }
    const m = SPEC.exec(raw);
    if (!m) continue;
    const indent = m[1]!.length;
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    const id = [...stack.map((s) => s.name), m[3]!.trim()].join(' > ');
    const mark = m[2]!;
    const s: TestStatus =
      m[5] || mark === '﹣' ? 'SKIPPED' : mark === '✔' || mark === '✓' ? 'PASSED' : 'FAILED';
    put(out, id, s);
  }
  return out;
}

/** TAP when present, otherwise the spec reporter. */
export function parseNodeTest(log: string): TestMap {
  const tap = parseTap(log);
  return Object.keys(tap).length ? tap : parseNodeSpec(log);
}
