/**
 * Splitting a fix diff into the gold `patch` and the `test_patch` (pure).
 *
 * The base rule is SWE-bench's / Multi-SWE-bench's (`extract_patches`): a file whose path names a test
 * location goes to the test patch. Their code matches the words test/tests/e2e/testing as substrings of the
 * whole path (so `src/latest.go` or `contest.py` count as tests); faun's default (`dirs`) asks for a directory
 * component named test, tests, e2e or testing instead, and `substring` reproduces the reference exactly.
 * On top of it, per-language conventions:
 * - Java: any path under `src/test/` (sources and resources of the Maven/Gradle test tree);
 * - Go: `*_test.go`;
 * - Rust: `tests/` (covered by the base rule), and a source file whose every changed line lies inside a
 *   `#[cfg(test)]` module. A source file that changes both code and its `#[cfg(test)]` module stays whole in
 *   the gold patch: the evaluation restores test-patch files wholesale (SWE-bench's `git checkout` of the
 *   test files), so one file in both patches would lose the fix; its new tests then show up as
 *   NONE→PASS (n2p), which Multi-SWE-bench's validity check accepts.
 * - JavaScript / TypeScript: `__tests__/` directories and `*.test.*` / `*.spec.*` files.
 * Binary changes (`Binary files … differ`, `GIT binary patch`) go in neither patch: text patches cannot carry
 * them, and they are counted so the build can say when a commit was only binary.
 * @module
 */
import { patchFiles } from './swebench.ts';

export type SplitRule = 'dirs' | 'substring';
const TEST_WORDS = ['test', 'tests', 'e2e', 'testing'];
const JS_EXT = /\.(?:[cm]?[jt]sx?)$/;

/** Reads one side of a changed file (for the Rust `#[cfg(test)]` rule); null when unknown. */
export type FileText = (path: string, side: 'before' | 'after') => string | null;

/** Whether `path` is a test file by path alone (no file contents). */
export function isTestPath(path: string, rule: SplitRule = 'dirs'): boolean {
  const lower = path.toLowerCase();
  if (rule === 'substring' ? TEST_WORDS.some((w) => lower.includes(w)) : hasTestDir(path)) return true;
  const name = path.split('/').at(-1) ?? '';
  if (`/${path}`.includes('/src/test/')) return true; // Java / Maven / Gradle
  if (name.endsWith('_test.go')) return true; // Go
  if (path.split('/').slice(0, -1).includes('__tests__')) return true; // JS / TS (Jest)
  if (JS_EXT.test(name) && /\.(?:test|spec)\./.test(name)) return true; // JS / TS
  return false;
}

function hasTestDir(path: string): boolean {
  return path
    .split('/')
    .slice(0, -1)
    .some((d) => TEST_WORDS.includes(d));
}

/** 1-based line ranges of the `#[cfg(test)]` modules of a Rust source (brace matching, strings/comments skipped). */
export function cfgTestRanges(text: string): Array<[number, number]> {
  const lines = text.split('\n');
  const out: Array<[number, number]> = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*#\[cfg\(test\)\]\s*$/.test(lines[i] ?? '')) continue;
    // the item after the attribute (other attributes may come between) must be a module with a body
    let j = i + 1;
    while (j < lines.length && /^\s*(#\[|\/\/|$)/.test(lines[j] ?? '')) j++;
    if (!/^\s*(pub(\([^)]*\))?\s+)?mod\s+\w+\s*\{/.test(lines[j] ?? '')) continue;
    const end = closingLine(lines, j);
    if (end !== null) {
      out.push([i + 1, end + 1]);
      i = end;
    }
  }
  return out;
}

/** The 0-based line where the brace opened on line `start` closes. */
function closingLine(lines: string[], start: number): number | null {
  let depth = 0;
  let block = false;
  for (let i = start; i < lines.length; i++) {
    const l = lines[i] ?? '';
    let inStr = false;
    for (let k = 0; k < l.length; k++) {
      const c = l[k];
      const n = l[k + 1];
      if (block) {
        if (c === '*' && n === '/') {
          block = false;
          k++;
        }
        continue;
      }
      if (inStr) {
        if (c === '\\') k++;
        else if (c === '"') inStr = false;
        continue;
      }
      if (c === '/' && n === '/') break;
      if (c === '/' && n === '*') {
        block = true;
        k++;
      } else if (c === '"') inStr = true;
      else if (c === "'" && l[k + 2] === "'")
        k += 2; // char literal like '{'
      else if (c === '{') depth++;
      else if (c === '}') {
        depth--;
        if (depth === 0) return i;
      }
    }
  }
  return null;
}

/** Whether every line this Rust file's diff removes or adds lies inside a `#[cfg(test)]` module. */
function onlyCfgTest(
  hunks: Array<{ oldStart: number; newStart: number; lines: string[] }>,
  before: string | null,
  after: string | null,
): boolean {
  const inside = (ranges: Array<[number, number]>, n: number) => ranges.some(([a, b]) => n >= a && n <= b);
  const rb = before === null ? [] : cfgTestRanges(before);
  const ra = after === null ? [] : cfgTestRanges(after);
  if (!rb.length && !ra.length) return false;
  let changed = 0;
  for (const h of hunks) {
    let o = h.oldStart;
    let n = h.newStart;
    for (const l of h.lines) {
      if (l.startsWith('-')) {
        changed++;
        if (!inside(rb, o)) return false;
        o++;
      } else if (l.startsWith('+')) {
        changed++;
        if (!inside(ra, n)) return false;
        n++;
      } else if (!l.startsWith('\\')) {
        o++;
        n++;
      }
    }
  }
  return changed > 0;
}

export interface SplitFile {
  path: string;
  kind: 'test' | 'code' | 'binary';
  /** Why it is a test file (the rule that matched), or null. */
  rule: string | null;
}

export interface SplitResult {
  patch: string;
  test_patch: string;
  files: SplitFile[];
}

/** The chunks of a `git diff` output, one per `diff --git` header (text kept byte for byte). */
export function diffChunks(diff: string): string[] {
  const starts: number[] = [];
  const re = /^diff --git /gm;
  for (let m = re.exec(diff); m; m = re.exec(diff)) starts.push(m.index);
  return starts.map((s, i) => diff.slice(s, starts[i + 1] ?? diff.length));
}

function chunkPath(chunk: string): string {
  const files = patchFiles(chunk);
  if (files[0]?.path) return files[0].path;
  // binary and mode-only chunks have no ---/+++ lines: the header names the file
  const h = /^diff --git a\/(.*?) b\/(.*)$/m.exec(chunk);
  return h?.[2] ?? h?.[1] ?? '';
}

/** Splits a `git diff` into the gold patch and the test patch (see the module notes for the rule). */
export function splitPatch(diff: string, o: { rule?: SplitRule; text?: FileText } = {}): SplitResult {
  const out: SplitResult = { patch: '', test_patch: '', files: [] };
  for (const chunk of diffChunks(diff)) {
    const path = chunkPath(chunk);
    if (/^(Binary files .* differ|GIT binary patch)$/m.test(chunk)) {
      out.files.push({ path, kind: 'binary', rule: null });
      continue;
    }
    let rule: string | null = isTestPath(path, o.rule) ? 'path' : null;
    if (!rule && path.endsWith('.rs') && o.text) {
      const hunks = patchFiles(chunk)[0]?.p.hunks ?? [];
      if (onlyCfgTest(hunks, o.text(path, 'before'), o.text(path, 'after')))
        rule = 'rust #[cfg(test)] module';
    }
    out.files.push({ path, kind: rule ? 'test' : 'code', rule });
    if (rule) out.test_patch += chunk;
    else out.patch += chunk;
  }
  return out;
}
