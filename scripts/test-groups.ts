/**
 * The two groups integration test files run in (scripts/test.ts runs them side by side): files that start
 * containers (they call `ensureDocker`), whose time goes to builds and test runs inside containers, and the
 * rest (servers, browsers, child processes), whose time goes largely to waiting on them. Each group has its
 * own test processes, so a long container suite never holds back the others.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Group {
  label: string;
  files: string[];
}

/** Whether a test file's source starts containers. */
export function usesContainers(source: string): boolean {
  return /\bensureDocker\b/.test(source);
}

/** Splits `files` (paths relative to `root`, sorted) into the container group and the others; empty groups are left out. */
export function integrationGroups(root: string, files: string[]): Group[] {
  const sorted = [...files].sort();
  const containers = sorted.filter((f) => usesContainers(readFileSync(join(root, f), 'utf8')));
  const others = sorted.filter((f) => !containers.includes(f));
  return [
    { label: 'integration tests (containers)', files: containers },
    { label: 'integration tests (others)', files: others },
  ].filter((g) => g.files.length > 0);
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
