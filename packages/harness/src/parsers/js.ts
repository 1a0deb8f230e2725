/**
 * JavaScript runners: jest (`--json`, preferred, or verbose text), vitest (`--reporter=json` is
 * jest-shaped, or verbose text) and mocha (`--reporter json`, or spec text).
 */
import type { TestStatus } from '@faun/schema';
import { lines, put, stripAnsi, type TestMap } from './common.ts';

/** Every top-level JSON object embedded in `text` (balanced-brace scan, strings respected). */
export function jsonObjects(text: string): unknown[] {
  const out: unknown[] = [];
  let i = text.indexOf('{');
  while (i >= 0 && i < text.length) {
    let depth = 0;
    let inStr = false;
    let end = -1;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (inStr) {
        if (c === '\\') j++;
        else if (c === '"') inStr = false;
      } else if (c === '"') inStr = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        end = j;
        break;
      }
    }
    if (end < 0) break;
    try {
      out.push(JSON.parse(text.slice(i, end + 1)));
      i = text.indexOf('{', end + 1);
    } catch {
      i = text.indexOf('{', i + 1);
    }
  }
  return out;
}

const JEST_STATUS: Record<string, TestStatus> = {
  passed: 'PASSED',
  failed: 'FAILED',
  pending: 'SKIPPED',
  skipped: 'SKIPPED',
  todo: 'SKIPPED',
  disabled: 'SKIPPED',
};

interface JestJson {
  testResults?: Array<{
    name?: string;
    assertionResults?: Array<{
      fullName?: string;
      title?: string;
      status?: string;
      ancestorTitles?: string[];
    }>;
  }>;
}

/** jest/vitest JSON reports; ids are `fullName` (ancestors and title joined by spaces). */
export function parseJestJson(log: string): TestMap {
  const out: TestMap = {};
  for (const obj of jsonObjects(stripAnsi(log)) as JestJson[]) {
    if (!obj || !Array.isArray(obj.testResults)) continue;
    for (const file of obj.testResults) {
      for (const a of file.assertionResults ?? []) {
        const id = a.fullName ?? [...(a.ancestorTitles ?? []), a.title ?? ''].join(' ');
        put(out, id, JEST_STATUS[a.status ?? ''] ?? 'ERROR');
      }
    }
  }
  return out;
}

const JEST_TEXT = /^\s*(✓|√|✕|×|○)\s+(?:(skipped|todo)\s+)?(.+?)(?:\s+\(\d+(?:\.\d+)?\s*m?s\))?$/;

export function parseJest(log: string): TestMap {
  const json = parseJestJson(log);
  if (Object.keys(json).length) return json;
  const out: TestMap = {};
  for (const raw of lines(log)) {
    const m = JEST_TEXT.exec(raw);
    if (!m) continue;
    const s: TestStatus =
      m[1] === '○' || m[2] ? 'SKIPPED' : m[1] === '✓' || m[1] === '√' ? 'PASSED' : 'FAILED';
    put(out, m[3]!, s);
  }
  return out;
}

// ` ✓ src/a.test.ts > suite > adds 2ms`, ` × … `, ` ↓ … [skipped]`
const VITEST = /^\s*(✓|√|×|✗|↓)\s+(.+?)(?:\s+\d+(?:\.\d+)?m?s)?(?:\s+\[skipped\])?$/;

export function parseVitest(log: string): TestMap {
  const json = parseJestJson(log);
  if (Object.keys(json).length) return json;
  const out: TestMap = {};
  for (const raw of lines(log)) {
    const m = VITEST.exec(raw);
    if (!m || !m[2]!.includes(' > ')) continue;
    put(out, m[2]!, m[1] === '↓' ? 'SKIPPED' : m[1] === '✓' || m[1] === '√' ? 'PASSED' : 'FAILED');
  }
  return out;
}

interface MochaJson {
  stats?: unknown;
  passes?: Array<{ fullTitle?: string }>;
  failures?: Array<{ fullTitle?: string }>;
  pending?: Array<{ fullTitle?: string }>;
}

export function parseMocha(log: string): TestMap {
  const out: TestMap = {};
  for (const obj of jsonObjects(stripAnsi(log)) as MochaJson[]) {
    if (!obj?.stats || !Array.isArray(obj.passes)) continue;
    for (const t of obj.passes) if (t.fullTitle) put(out, t.fullTitle, 'PASSED');
    for (const t of obj.pending ?? []) if (t.fullTitle) put(out, t.fullTitle, 'SKIPPED');
    for (const t of obj.failures ?? []) if (t.fullTitle) put(out, t.fullTitle, 'FAILED');
  }
  if (Object.keys(out).length) return out;
  // spec reporter: suites are indented titles, tests are `✓ title`, `N) title`, `- title`.
  const stack: Array<{ indent: number; name: string }> = [];
  let inFailureDetails = false;
  for (const raw of lines(log)) {
    if (/^\s*\d+ (passing|failing|pending)\b/.test(raw)) {
      inFailureDetails = /failing/.test(raw);
      continue;
    }
    if (inFailureDetails || !raw.trim()) continue;
    const indent = raw.length - raw.trimStart().length;
    const text = raw.trim();
    const t = /^(✓|✔|√|\d+\)|-)\s+(.+?)(?:\s+\(\d+ms\))?$/.exec(text);
    while (stack.length && stack[stack.length - 1]!.indent >= indent) stack.pop();
    if (t) {
      const id = [...stack.map((s) => s.name), t[2]!].join(' ');
      put(out, id, t[1] === '-' ? 'SKIPPED' : /\d/.test(t[1]!) ? 'FAILED' : 'PASSED');
    } else stack.push({ indent, name: text });
  }
  return out;
}
