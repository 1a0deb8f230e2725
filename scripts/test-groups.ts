/**
 * The groups integration test files run in. Two run side by side (scripts/test.ts), each with its own test
 * processes, so a long container suite never holds back the others: files that start containers (they call
 * `ensureDocker`), whose time goes to builds and test runs inside containers, and the rest (servers,
 * browsers, child processes), whose time goes largely to waiting on them. A third group runs after both, one
 * file at a time: files with a `// alone: <why>` line, whose assertions (latency bounds) would measure the
 * other suites' load on the machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Group {
  label: string;
  files: string[];
  /** `containers` and `others` run side by side; `alone` after them, one file at a time. */
  kind: 'containers' | 'others' | 'alone';
}

/** Whether a test file's source starts containers. */
export function usesContainers(source: string): boolean {
  return /\bensureDocker\b/.test(source);
}

/** Whether a test file must run with no other test running: it has a line `// alone: <why>`. */
export function runsAlone(source: string): boolean {
  return /^\/\/ alone: \S/m.test(source);
}

/**
 * Splits `files` (paths relative to `root`, sorted) into the container group, the others and the files that
 * run alone (whether or not they start containers); empty groups are left out.
 */
export function integrationGroups(root: string, files: string[]): Group[] {
  const sorted = [...files].sort();
  const source = new Map(sorted.map((f) => [f, readFileSync(join(root, f), 'utf8')]));
  const alone = sorted.filter((f) => runsAlone(source.get(f)!));
  const rest = sorted.filter((f) => !alone.includes(f));
  const containers = rest.filter((f) => usesContainers(source.get(f)!));
  const others = rest.filter((f) => !containers.includes(f));
  const groups: Group[] = [
    { label: 'integration tests (containers)', files: containers, kind: 'containers' },
    { label: 'integration tests (others)', files: others, kind: 'others' },
    { label: 'integration tests (alone)', files: alone, kind: 'alone' },
  ];
  return groups.filter((g) => g.files.length > 0);
}

/** Every `*.int.test.ts` under `root` outside node_modules, relative paths, sorted. */
export function integrationFiles(root: string): string[] {
  const glob = new Bun.Glob('**/*.int.test.ts');
  return [...glob.scanSync({ cwd: root })].filter((f) => !f.split('/').includes('node_modules')).sort();
}

export interface Timings {
  version: number;
  files: Record<string, number>;
}

/**
 * The timings file after the groups' runs: each group's measured durations (the `files` of the timings it
 * wrote) for its own files, over `base`; keys sorted.
 */
export function mergeTimings(base: Timings, measured: Array<{ files: string[]; timings: Timings }>): Timings {
  const files = { ...base.files };
  for (const m of measured)
    for (const f of m.files) {
      const ms = m.timings.files[f];
      if (ms !== undefined) files[f] = ms;
    }
  const sorted = Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { ...base, files: sorted };
}
