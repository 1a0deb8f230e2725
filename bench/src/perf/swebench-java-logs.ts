/**
 * faun's derived Java lists against SWE-bench-java's published ones. SWE-bench-java's run logs (the
 * multi-swe-bench/experiments repository: `evaluation/java/<split>/<run>/logs/<instance>/run_instance.log`)
 * end with the grader's report, a Python dict holding each instance's FAIL_TO_PASS and PASS_TO_PASS tests
 * (every run lists the same tests; only their success / failure differs). This reads those lists from a
 * mirror of that repository and compares them with the SWE-bench rows `faun validate --swebench-out` wrote
 * (`bench real-exec` keeps them as `<work>/<owner+name>/valid.swebench.jsonl`).
 *
 *   bun run bench swebench-java-logs --experiments MIRROR --rows valid.swebench.jsonl[,more.jsonl] [--out FILE.md]
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { InputError, UsageError } from '@faun/kit';
import { type FlagDefaults, parseFlags } from '../args.ts';

export const FLAGS = {
  /** The git directory of a multi-swe-bench/experiments mirror. */
  experiments: undefined,
  /** SWE-bench rows (JSONL), comma-separated. */
  rows: undefined,
  /** Where the comparison table goes (Markdown). */
  out: undefined,
} satisfies FlagDefaults;

export interface Lists {
  f2p: string[];
  p2p: string[];
}

/** SWE-bench-java names a test class by its source set: `src:com.x.FooTest`; faun by the class. */
const plain = (name: string) => name.replace(/^src:/, '');

/**
 * The test lists of the report line of one run log (`report: {'<id>': {... 'tests_status': {'FAIL_TO_PASS':
 * {'success': [...], 'failure': [...], 'skipped': [...]}, 'PASS_TO_PASS': {...}, ...}}}`), or null when the log
 * has no report (the run ended before grading). Pure.
 */
export function reportLists(log: string): { id: string; lists: Lists } | null {
  const line = log.split('\n').find((l) => l.includes(' - INFO - report: {'));
  if (!line) return null;
  const id = /report: \{'([^']+)'/.exec(line)?.[1];
  if (!id) return null;
  const section = (key: string): string[] => {
    const m = new RegExp(`'${key}': \\{([^}]*)\\}`).exec(line);
    if (!m) return [];
    // each status's list: `'success': ['a', 'b']`
    return [...(m[1] ?? '').matchAll(/'\w+': \[([^\]]*)\]/g)].flatMap((list) =>
      [...(list[1] ?? '').matchAll(/'([^']*)'/g)].map((x) => plain(x[1] ?? '')),
    );
  };
  return {
    id: id.toLowerCase(),
    lists: { f2p: section('FAIL_TO_PASS').sort(), p2p: section('PASS_TO_PASS').sort() },
  };
}

export interface Published {
  lists: Lists;
  /** How many runs' logs list exactly these tests. */
  runs: number;
  /** Runs whose logs list other tests (none expected). */
  disagreeing: string[];
}

/** The published lists per instance id (lowercase) from `[run, log]` pairs. Pure. */
export function publishedLists(logs: Array<[string, string]>): Map<string, Published> {
  const out = new Map<string, Published>();
  for (const [run, log] of logs) {
    const r = reportLists(log);
    if (!r) continue;
    const had = out.get(r.id);
    if (!had) out.set(r.id, { lists: r.lists, runs: 1, disagreeing: [] });
    else if (JSON.stringify(had.lists) === JSON.stringify(r.lists)) had.runs++;
    else had.disagreeing.push(run);
  }
  return out;
}

export interface Comparison {
  instance_id: string;
  published: Lists;
  faun: Lists;
  f2p_identical: boolean;
  p2p_identical: boolean;
  /** Per list: published tests faun did not derive, and tests faun derived the published list lacks. */
  missing: Lists;
  extra: Lists;
}

const minus = (a: string[], b: string[]) => a.filter((x) => !b.includes(x));

/** faun's row lists against the published ones. Pure. */
export function compareLists(id: string, published: Lists, faun: Lists): Comparison {
  const f = { f2p: [...faun.f2p].map(plain).sort(), p2p: [...faun.p2p].map(plain).sort() };
  return {
    instance_id: id,
    published,
    faun: f,
    f2p_identical: JSON.stringify(f.f2p) === JSON.stringify(published.f2p),
    p2p_identical: JSON.stringify(f.p2p) === JSON.stringify(published.p2p),
    missing: { f2p: minus(published.f2p, f.f2p), p2p: minus(published.p2p, f.p2p) },
    extra: { f2p: minus(f.f2p, published.f2p), p2p: minus(f.p2p, published.p2p) },
  };
}

/** Every run log of the mirror's HEAD tree: `[run folder, text]`. */
function runLogs(gitDir: string): Array<[string, string]> {
  const git = (args: string[], input?: string): Buffer => {
    const p = Bun.spawnSync(['git', '--git-dir', gitDir, ...args], {
      stdin: input ? Buffer.from(input) : undefined,
    });
    if (p.exitCode !== 0)
      throw new InputError(`git ${args[0]} in ${gitDir} failed: ${p.stderr.toString().trim()}`);
    return p.stdout;
  };
  const paths = git(['ls-tree', '-r', '--name-only', 'HEAD', 'evaluation/java'])
    .toString()
    .split('\n')
    .filter((p) => p.endsWith('/run_instance.log'));
  // `git cat-file --batch`: per object a header line `<sha> blob <size>`, the bytes, a newline
  const blobs = git(['cat-file', '--batch'], `${paths.map((p) => `HEAD:${p}`).join('\n')}\n`);
  const out: Array<[string, string]> = [];
  let at = 0;
  for (const path of paths) {
    const nl = blobs.indexOf(0x0a, at);
    const size = Number(blobs.subarray(at, nl).toString().split(' ')[2]);
    out.push([path.split('/').slice(0, 4).join('/'), blobs.subarray(nl + 1, nl + 1 + size).toString()]);
    at = nl + 1 + size + 1;
  }
  return out;
}

const readRows = (files: string[]) =>
  files.flatMap((file) => {
    if (!existsSync(file))
      throw new InputError(`${file}: no such file (SWE-bench rows from faun validate --swebench-out)`);
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l, i) => {
        try {
          return JSON.parse(l) as { instance_id: string; FAIL_TO_PASS: string[]; PASS_TO_PASS: string[] };
        } catch (e) {
          throw new InputError(`${file}:${i + 1}: not valid JSON (${(e as Error).message})`);
        }
      });
  });

export default async function swebenchJavaLogs(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('swebench-java-logs', args, FLAGS);
  if (!f.experiments || !f.rows)
    throw new UsageError(
      '--experiments DIR (a multi-swe-bench/experiments mirror) and --rows FILE[,FILE] are required',
    );
  const logs = runLogs(f.experiments);
  const published = publishedLists(logs);
  console.log(`${logs.length} run logs, ${published.size} instances with published lists`);
  const rows = readRows(f.rows.split(','));
  const compared: Comparison[] = [];
  const unpublished: string[] = [];
  for (const row of rows) {
    const p = published.get(row.instance_id.toLowerCase());
    if (!p) unpublished.push(row.instance_id);
    else
      compared.push(compareLists(row.instance_id, p.lists, { f2p: row.FAIL_TO_PASS, p2p: row.PASS_TO_PASS }));
  }
  const lines = [
    '| instance | published FAIL_TO_PASS | faun | identical | PASS_TO_PASS published / faun | identical |',
    '|---|---|---|---|---|---|',
    ...compared.map(
      (c) =>
        `| ${c.instance_id} | ${c.published.f2p.join(', ')} | ${c.faun.f2p.join(', ')} | ${c.f2p_identical ? 'yes' : 'no'} | ${c.published.p2p.length} / ${c.faun.p2p.length} | ${c.p2p_identical ? 'yes' : 'no'} |`,
    ),
  ];
  console.log(lines.join('\n'));
  const summary = {
    compared: compared.length,
    f2p_identical: compared.filter((c) => c.f2p_identical).length,
    p2p_identical: compared.filter((c) => c.p2p_identical).length,
    not_published: unpublished,
    disagreeing_runs: [...published].filter(([, p]) => p.disagreeing.length).map(([id]) => id),
  };
  console.log(
    `swebench-java-logs: ${summary.compared} compared; FAIL_TO_PASS identical ${summary.f2p_identical}, PASS_TO_PASS identical ${summary.p2p_identical}; ${unpublished.length} not in the published logs`,
  );
  if (f.out) writeFileSync(f.out, `${lines.join('\n')}\n`);
  return { ...summary, comparisons: compared };
}
