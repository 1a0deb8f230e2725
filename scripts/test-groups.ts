/**
 * The groups integration test files run in (scripts/test.ts): every file in one pool of test processes, the
 * slowest first, so that the pool stays busy to its end (two pools side by side, one for the files that start
 * containers and one for the others, left the cores half idle in the last minutes, when only the container
 * pool still had files); then the files with a `// alone: <why>` line, one at a time, whose assertions
 * (latency bounds) would measure the other suites' load on the machine.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Group {
  label: string;
  files: string[];
  /** `integration` in parallel; `alone` after it, one file at a time. */
  kind: 'integration' | 'alone';
}

/** Whether a test file must run with no other test running: it has a line `// alone: <why>`. */
export function runsAlone(source: string): boolean {
  return /^\/\/ alone: \S/m.test(source);
}

/** Splits `files` (paths relative to `root`) into the pool and the files that run alone, each sorted; empty groups are left out. */
export function integrationGroups(root: string, files: string[]): Group[] {
  const sorted = [...files].sort();
  const alone = sorted.filter((f) => runsAlone(readFileSync(join(root, f), 'utf8')));
  const groups: Group[] = [
    { label: 'integration tests', files: sorted.filter((f) => !alone.includes(f)), kind: 'integration' },
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
