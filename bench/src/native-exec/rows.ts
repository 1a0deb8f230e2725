/**
 * Pure core of the native execution check: a fix commit's diff split into the fix patch and the test
 * patch, and the Multi-SWE-bench-shaped row made from a pointer. No I/O (run.ts reads the mirrors).
 */

/** One pointer of `bench/data/real-exec-pointers-native.jsonl`. */
export interface NativePointer {
  language: 'c' | 'cpp' | 'go' | 'rust';
  repo: string;
  pr: number;
  fix_commit: string;
  problem_statement?: string;
}

/** Checks one parsed JSONL value; the message names the line and the field. */
export function parsePointer(v: unknown, where: string): NativePointer {
  const o = (v ?? {}) as Record<string, unknown>;
  const bad = (field: string, want: string) =>
    new Error(`${where}: field '${field}' must be ${want}, got ${JSON.stringify(o[field])}`);
  if (!['c', 'cpp', 'go', 'rust'].includes(o.language as string)) throw bad('language', 'c, cpp, go or rust');
  if (typeof o.repo !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(o.repo)) throw bad('repo', 'owner/name');
  if (!Number.isInteger(o.pr) || (o.pr as number) <= 0) throw bad('pr', 'a positive integer');
  if (typeof o.fix_commit !== 'string' || !/^[0-9a-f]{40}$/.test(o.fix_commit))
    throw bad('fix_commit', 'a 40-hex commit id');
  if (o.problem_statement !== undefined && typeof o.problem_statement !== 'string')
    throw bad('problem_statement', 'a string');
  return o as unknown as NativePointer;
}

/** A test path by the rules of the native languages: `_test.go`, `test/`, `tests/`, `testdata/`… */
export function isTestPath(path: string): boolean {
  if (path.endsWith('_test.go')) return true;
  const parts = path.split('/');
  return parts
    .slice(0, -1)
    .some((d) => ['test', 'tests', 'testdata', 'testing', 'unittest', 'unittests'].includes(d.toLowerCase()));
}

/** One `diff --git` section: its header lines and hunks (each `@@` line with its body). */
interface FileDiff {
  path: string;
  header: string[];
  hunks: string[][];
}

function fileDiffs(diff: string): FileDiff[] {
  const out: FileDiff[] = [];
  let cur: FileDiff | null = null;
  let hunk: string[] | null = null;
  const lines = diff.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    if (line.startsWith('diff --git ')) {
      const m = / b\/(.+)$/.exec(line);
      cur = { path: m?.[1] ?? line, header: [line], hunks: [] };
      hunk = null;
      out.push(cur);
    } else if (!cur) continue;
    else if (line.startsWith('@@')) {
      hunk = [line];
      cur.hunks.push(hunk);
    } else if (hunk) hunk.push(line);
    else cur.header.push(line);
  }
  return out;
}

const render = (f: FileDiff, hunks: string[][]) => [...f.header, ...hunks.flat()].join('\n');

/** First line (1-based, post-fix side) of `#[cfg(test)]` in a Rust file, or null. */
export function cfgTestLine(source: string): number | null {
  const i = source.split('\n').findIndex((l) => l.trim() === '#[cfg(test)]');
  return i < 0 ? null : i + 1;
}

/**
 * Splits a fix commit's diff: files on test paths go to the test patch; in a Rust source file the hunks
 * that start after its `#[cfg(test)]` line (given by `cfgTest`, from the file at the fix commit) go to
 * the test patch too. Returns each as a diff ending in a newline (or "").
 */
export function splitDiff(
  diff: string,
  cfgTest: (path: string) => number | null = () => null,
): { patch: string; test_patch: string } {
  const fix: string[] = [];
  const test: string[] = [];
  for (const f of fileDiffs(diff)) {
    if (isTestPath(f.path)) {
      test.push(render(f, f.hunks));
      continue;
    }
    const line = f.path.endsWith('.rs') ? cfgTest(f.path) : null;
    if (line === null || !f.hunks.length) {
      fix.push(render(f, f.hunks));
      continue;
    }
    const start = (h: string[]) => Number(/^@@ -\d+(?:,\d+)? \+(\d+)/.exec(h[0]!)?.[1] ?? 0);
    const inTests = f.hunks.filter((h) => start(h) > line);
    const rest = f.hunks.filter((h) => start(h) <= line);
    if (rest.length) fix.push(render(f, rest));
    if (inTests.length) test.push(render(f, inTests));
  }
  const join = (xs: string[]) => (xs.length ? `${xs.join('\n')}\n` : '');
  return { patch: join(fix), test_patch: join(test) };
}

/** The Multi-SWE-bench-shaped row of a pointer (before validation: no test lists yet). */
export function msbRow(p: NativePointer, baseSha: string, split: { patch: string; test_patch: string }) {
  const [org, repo] = p.repo.split('/') as [string, string];
  return {
    org,
    repo,
    number: p.pr,
    lang: p.language,
    base: { sha: baseSha },
    fix_patch: split.patch,
    test_patch: split.test_patch,
    body: p.problem_statement ?? '',
  };
}
