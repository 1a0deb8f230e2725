/**
 * Execution instances from real pull requests, end to end: the pointer list
 * `bench/data/real-exec-pointers.jsonl` (`{language, repo, pr, fix_commit, problem_statement?}` per line)
 * → for every repository whose mirror is under `--mirrors DIR` (`DIR/owner+name`, or its `repo/` git
 * directory) `faun build --tasks exec` → `faun validate --rule multi-swe-bench --repeats N` → `faun verify`
 * with the gold patch (must resolve), the empty patch (must not) and a patch that only reverts the test
 * patch (must not: a model that deletes the new tests), one repository at a time in its own work folder
 * (`--work DIR`/owner+name, default bench/out/real-exec/…), so runs over single repositories (`--pointers`)
 * are reused by a run over the whole list: builds by their inputs, validations by faun validate's journal,
 * verify runs by run id. Writes `bench/out/real-exec.json`: `{"languages": {"<lang>": {repositories,
 * pointers, built, instances, counted, gold_resolved, empty_resolved, revert_resolved, reference_mismatches}},
 * "repositories": {"<owner/name>": {figures, build_funnel, validate_funnel, upstream, instances}}}`: per valid
 * instance its version, the test command it ran and every deviation from Multi-SWE-bench's command or tree
 * (real-exec-upstream.ts); `counted` leaves out the instances with a deviation that can change which tests run. `reference_mismatches` (valid instances on which Multi-SWE-bench's own report
 * code, run over the stage logs validate kept, derives anything different: msb-parity.ts) needs
 * `--msb-src DIR` (an extracted Multi-SWE-bench tree); without it, it is null.
 *
 *   bun run bench real-exec --mirrors /work/.mirror
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  instanceDirName,
  isParserName,
  JACKSON_XML_REPO,
  MSB,
  PR_VERSIONS,
  type PrVersion,
  parseLog,
  specFor,
  stageLogName,
  testCommand,
  versionForPr,
} from '@faun/harness';
import { invert } from '@faun/harness/testing';
import { FaunError, InputError, UsageError } from '@faun/kit';
import { type ExecutionInstance, stableStringify } from '@faun/schema';
import { type FlagDefaults, parseFlags } from '../args.ts';
import { gitFileAt } from '../git-file.ts';
import type { Deviation } from '../msb-published/upstream.ts';
import { msbParity, recordedSides, requireMsbReference } from './msb-parity.ts';
import { checkBaseVersions, sourceRepoDirs, sourceRepos } from './real-exec-envs.ts';
import { changesTestsRun, deviationsOf, REAL_EXEC_UPSTREAM } from './real-exec-upstream.ts';
import { type SuiteCheck, selectionAt, suiteCheck } from './suite-check.ts';

export const FLAGS = {
  mirrors: undefined,
  pointers: undefined,
  repeats: 3,
  workers: 1,
  timeout: 900,
  work: undefined,
  /** An extracted Multi-SWE-bench tree: its report code re-derives every instance from the stage logs. */
  'msb-src': undefined,
  /**
   * N: run the gold patches N more times (run ids real-exec-gold-2 … -N+1) and count the instances whose outcome or
   * test statuses differ in any of them from the first run (0: skip).
   */
  'second-run': 1,
} satisfies FlagDefaults;

const MAIN = resolve(import.meta.dir, '../../../apps/cli/src/main.ts');
const DATA = resolve(import.meta.dir, '../../data/real-exec-pointers.jsonl');
const OUT = resolve(import.meta.dir, '../../out');
const LANGS = new Set(['python', 'java', 'javascript', 'typescript', 'go', 'rust', 'c', 'cpp']);

export interface Pointer {
  language: string;
  repo: string;
  pr: number;
  fix_commit: string;
  problem_statement?: string;
}

/** Parses the pointer list; a bad row is an error naming its line and field. */
export function readPointers(text: string, file: string): Pointer[] {
  const out: Pointer[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    const where = `${file}:${i + 1}`;
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line) as Record<string, unknown>;
    } catch (e) {
      throw new InputError(`${where}: not valid JSON (${(e as Error).message})`);
    }
    if (typeof r.language !== 'string' || !LANGS.has(r.language))
      throw new InputError(`${where}: language: expected one of ${[...LANGS].join(', ')}`);
    if (typeof r.repo !== 'string' || !/^[\w.-]+\/[\w.-]+$/.test(r.repo))
      throw new InputError(`${where}: repo: expected "owner/name"`);
    if (!Number.isInteger(r.pr) || (r.pr as number) <= 0)
      throw new InputError(`${where}: pr: expected a PR number`);
    if (typeof r.fix_commit !== 'string' || !/^[0-9a-f]{40}$/.test(r.fix_commit))
      throw new InputError(`${where}: fix_commit: expected a 40-hex sha`);
    if (r.problem_statement !== undefined && typeof r.problem_statement !== 'string')
      throw new InputError(`${where}: problem_statement: expected a string`);
    out.push(r as unknown as Pointer);
  }
  return out;
}

/** The git directory of a repository's mirror under `dir`, or null. */
export function mirrorOf(dir: string, repo: string): string | null {
  const base = join(dir, repo.replace('/', '+'));
  for (const d of [join(base, 'repo'), base])
    if (existsSync(join(d, 'HEAD')) || existsSync(join(d, '.git'))) return d;
  return null;
}

/** The pull-request number an instance id ends with (`owner/repo:pr-N`, `owner__repo-N`). */
const prOf = (id: string): number => Number(/(\d+)$/.exec(id)?.[1] ?? -1);

/** Predictions that only revert each row's test patch (a model that deletes the new tests); returns `file`. */
function writeRevert(file: string, rows: Array<Record<string, unknown>>): string {
  const line = (r: Record<string, unknown>) =>
    JSON.stringify({
      instance_id: r.instance_id,
      model_name_or_path: 'revert-tests',
      model_patch: invert(String(r.test_patch)),
    });
  writeFileSync(file, `${rows.map(line).join('\n')}\n`);
  return file;
}

/** Per instance of a verify run: its outcome and per-test statuses, as one comparable string. */
function verdicts(runDir: string): Map<string, string> {
  const out = new Map<string, string>();
  const dir = join(runDir, 'instances');
  if (!existsSync(dir)) return out;
  for (const d of readdirSync(dir)) {
    const file = join(dir, d, 'report.json');
    if (!existsSync(file)) continue;
    for (const [id, r] of Object.entries(
      JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, unknown>>,
    ))
      out.set(
        id,
        stableStringify({ outcome: r.outcome, resolved: r.resolved, tests_status: r.tests_status }),
      );
  }
  return out;
}

/** Runs the faun CLI; its progress (stderr) is shown as it goes, and everything is kept in `log`. */
async function faun(args: string[], log: string): Promise<number> {
  const p = Bun.spawn(['bun', MAIN, ...args], { stdout: 'pipe', stderr: 'pipe' });
  let err = '';
  const tee = (async () => {
    const dec = new TextDecoder();
    for await (const chunk of p.stderr) {
      const text = dec.decode(chunk);
      err += text;
      process.stderr.write(text);
    }
  })();
  const out = await new Response(p.stdout).text();
  await tee;
  const code = await p.exited;
  writeFileSync(log, `${out}\n${err}`);
  return code;
}

const jsonl = (file: string): Array<Record<string, unknown>> =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l) as Record<string, unknown>)
    : [];

export interface LangFigures {
  repositories: number;
  pointers: number;
  built: number;
  instances: number;
  /** Valid instances with no deviation from Multi-SWE-bench's command or tree that can change which tests run. */
  counted: number;
  gold_resolved: number;
  empty_resolved: number;
  revert_resolved: number;
  reference_mismatches: number | null;
  /**
   * Java: instances whose gold / empty / test-revert verdict differs when the SWE-bench rows run on
   * SWE-bench's Java path (one Maven run per test, parse_log_maven, SWE-bench's rule). Null: not run.
   */
  swebench_java_mismatches: number | null;
  /** Instances whose gold outcome or per-test statuses differ in a second gold run. Null: not run. */
  second_run_mismatches: number | null;
}

/** What ran for one valid instance, and how it differs from Multi-SWE-bench's run. */
export interface InstanceRecord {
  version: string | null;
  /** faun's test command for the instance, as it ran. */
  command: string | null;
  deviations: Deviation[];
  /**
   * For a repository run over its whole suite with a stand-in POM: the run stage's test classes against
   * those the project's own Surefire configuration selects in the base tree (suite-check.ts).
   */
  suite_check?: SuiteCheck;
  /**
   * Whether a deviation can change which tests run (then it is not `counted`); a stand-in POM whose
   * suite check is equal did not.
   */
  changes_tests_run: boolean;
}

/** One repository's figures, the funnels of its build and validation, and what ran per valid instance. */
interface RepoResult {
  figures: Record<string, LangFigures>;
  build_funnel: Record<string, number>;
  validate_funnel: Record<string, number>;
  /** Multi-SWE-bench's command and base image for the repository (null: not one of its repositories). */
  upstream: { command: string | null; image: string | null };
  instances: Record<string, InstanceRecord>;
}

/** The record of one valid instance (a `valid.jsonl` row). */
export function instanceRecord(row: ExecutionInstance, suite?: SuiteCheck): InstanceRecord {
  const spec = specFor(row);
  const deviations = deviationsOf(row.repo, row.version);
  const unchecked = suite?.equal ? deviations.filter((d) => d.what !== 'stand-in POM') : deviations;
  return {
    version: row.version,
    command: spec ? testCommand(spec, row) : null,
    deviations,
    ...(suite ? { suite_check: suite } : {}),
    changes_tests_run: changesTestsRun(unchecked),
  };
}

/** Repositories run over their whole suite with a stand-in POM, whose run stage is checked per instance. */
const SUITE_CHECKED = new Set([JACKSON_XML_REPO]);

/**
 * The suite check of a valid instance (undefined when its repository has none): the classes its kept run-stage
 * log has results for, read with the parser that log names, against what the base's POM selects.
 */
function suiteCheckOf(r: RepoRun, mirror: string, row: ExecutionInstance): SuiteCheck | undefined {
  if (!SUITE_CHECKED.has(row.repo)) return undefined;
  const dir = join(r.work, 'stages', instanceDirName(row.instance_id));
  const log = join(dir, stageLogName('run', 0));
  const meta = join(dir, 'instance.json');
  const parser = existsSync(meta) ? JSON.parse(readFileSync(meta, 'utf8')).parser : null;
  if (!isParserName(parser) || !existsSync(log))
    throw new FaunError(`${row.instance_id}: no kept run-stage log or parser for its suite check (${dir})`);
  const ran = Object.keys(parseLog(parser, readFileSync(log, 'utf8')));
  return suiteCheck(selectionAt(mirror, row.base_commit), ran);
}

export const emptyFigures = (): LangFigures => ({
  repositories: 0,
  pointers: 0,
  built: 0,
  instances: 0,
  counted: 0,
  gold_resolved: 0,
  empty_resolved: 0,
  revert_resolved: 0,
  reference_mismatches: null,
  swebench_java_mismatches: null,
  second_run_mismatches: null,
});

/** Adds `b` into `a` (a null mismatch count — not compared — stays null only when both are). */
export function addFigures(a: LangFigures, b: LangFigures): void {
  for (const k of Object.keys(a) as Array<keyof LangFigures>) {
    if (k === 'reference_mismatches' || k === 'swebench_java_mismatches' || k === 'second_run_mismatches') {
      const x = b[k];
      if (x !== null) a[k] = (a[k] ?? 0) + x;
    } else a[k] += b[k];
  }
}

export default async function realExec(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('real-exec', args, FLAGS);
  if (!f.mirrors || !existsSync(f.mirrors))
    throw new UsageError('--mirrors DIR is required: the folder holding the repositories as DIR/owner+name');
  if (f['msb-src']) requireMsbReference(f['msb-src']);
  const file = f.pointers ?? DATA;
  const pointers = readPointers(readFileSync(file, 'utf8'), file);
  const work = resolve(f.work ?? join(OUT, 'real-exec'));
  const repos = [...new Set(pointers.map((p) => p.repo))].sort();
  const mirrors = new Map(
    repos.flatMap((r) => {
      const m = mirrorOf(f.mirrors!, r);
      return m ? [[r, m] as const] : [];
    }),
  );
  console.log(
    `${pointers.length} pointers, ${repos.length} repositories, ${mirrors.size} with a mirror under ${f.mirrors}`,
  );
  // Each repository has its own work folder (WORK/owner+name): a run over the whole list reuses what
  // runs over single repositories built, validated (faun validate's journal) and verified (run ids).
  const languages: Record<string, LangFigures> = {};
  const repositories: Record<string, RepoResult> = {};
  for (const [n, repo] of [...mirrors.keys()].entries()) {
    console.log(`\n== ${repo} (${n + 1}/${mirrors.size}) ==`);
    const r = await runRepository(
      repo,
      mirrors.get(repo)!,
      pointers.filter((p) => p.repo === repo),
      join(work, repo.replace('/', '+')),
      f,
    );
    repositories[repo] = r;
    for (const [lang, x] of Object.entries(r.figures)) addFigures((languages[lang] ??= emptyFigures()), x);
  }
  const table = [
    'language    repos  pointers  built  valid  counted  gold  empty  revert  msb-mismatch  swe-java-mismatch  2nd-run-mismatch',
    ...Object.entries(languages)
      .sort()
      .map(
        ([l, x]) =>
          `${l.padEnd(10)} ${String(x.repositories).padStart(6)} ${String(x.pointers).padStart(9)} ${String(x.built).padStart(6)} ${String(x.instances).padStart(6)} ${String(x.counted).padStart(8)} ${String(x.gold_resolved).padStart(5)} ${String(x.empty_resolved).padStart(6)} ${String(x.revert_resolved).padStart(7)} ${String(x.reference_mismatches ?? '-').padStart(13)} ${String(x.swebench_java_mismatches ?? '-').padStart(18)} ${String(x.second_run_mismatches ?? '-').padStart(17)}`,
      ),
  ];
  console.log(table.join('\n'));
  const result = { languages, repositories };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, 'real-exec.json'), `${stableStringify(result, 2)}\n`);
  console.log(`wrote ${join(OUT, 'real-exec.json')}`);
  return result;
}

/**
 * The `faun build --commits` file of one repository's pointers, and the stamp a later run compares to reuse
 * that build. The environment version each row gets (`table`, by PR range) is part of the stamp: a changed
 * table rebuilds the rows, as their `version` picks the spec.
 */
export function buildInputs(
  usable: Pointer[],
  repeats: number,
  table: PrVersion[] = PR_VERSIONS,
): { text: string; inputs: string } {
  const text =
    usable
      .map((p) =>
        JSON.stringify({
          repo: p.repo,
          commit: p.fix_commit,
          pr: p.pr,
          language: p.language,
          problem_statement: p.problem_statement,
        }),
      )
      .join('\n') + '\n';
  const versions = usable.map((p) => `${p.pr} ${versionForPr(p.repo, p.pr, table) ?? '-'}`).join(' ');
  return { text, inputs: `${text}repeats ${repeats}\nversions ${versions}\n` };
}

type Flags = ReturnType<typeof parseFlags<typeof FLAGS>>;

/** One repository's run: its folder, flags, the arguments every faun call shares, the figures per language. */
interface RepoRun {
  work: string;
  f: Flags;
  repoDirs: string[];
  /** --workers, --timeout and --repo-dir. */
  common: string[];
  langOf: Map<string, string>;
  figures: Record<string, LangFigures>;
  fig: (lang: string) => LangFigures;
  /** The validated instances file. */
  valid: string;
}

/** [1/5] faun build --tasks exec (reused when the commits are those of the last run); the built rows. */
async function buildStep(r: RepoRun, usable: Pointer[]) {
  const { work, repoDirs, valid } = r;
  const commits = join(work, 'commits.jsonl');
  // Resume: the same commits as the last run reuse its build and validation (verify runs resume by run id).
  const { text, inputs } = buildInputs(usable, r.f.repeats);
  const stamp = join(work, 'inputs.stamp');
  const same = existsSync(stamp) && readFileSync(stamp, 'utf8') === inputs;
  writeFileSync(commits, text);
  writeFileSync(stamp, inputs);
  const ds = join(work, 'ds');
  const reuse = same && existsSync(join(ds, 'exec.funnel.json'));
  console.log(`[1/5] faun build --tasks exec (${usable.length} commits)${reuse ? ': reused' : ''}`);
  if (!reuse) for (const f of [valid, `${valid}.funnel.json`]) rmSync(f, { force: true });
  if (
    !reuse &&
    (await faun(
      ['build', '--tasks', 'exec', '--commits', commits, '--out', ds, '--allow-empty', ...repoDirs],
      join(work, 'build.log'),
    )) !== 0
  )
    throw new FaunError(`faun build failed: see ${join(work, 'build.log')}`);
  const built = jsonl(join(ds, 'exec.msb.jsonl'));
  for (const b of built) r.fig(r.langOf.get(String(b.instance_id)) ?? String(b.lang)).built++;
  const buildFunnel = JSON.parse(readFileSync(join(ds, 'exec.funnel.json'), 'utf8'));
  console.log(`      ${built.length} built; skipped: ${stableStringify(buildFunnel.reasons)}`);
  return { ds, built, buildFunnel };
}

/** [2/5] faun validate --rule multi-swe-bench (it resumes by itself); the valid instances and their funnel. */
async function validateStep(r: RepoRun, ds: string, built: Record<string, unknown>[]) {
  const { work, valid, f } = r;
  // faun validate resumes by itself (<out>.journal.jsonl): instances it has settled are not run again.
  console.log(
    `[2/5] faun validate --rule multi-swe-bench --repeats ${f.repeats} (${built.length} instances)`,
  );
  if (built.length) {
    const code = await faun(
      [
        'validate',
        '--instances',
        join(ds, 'exec.msb.jsonl'),
        '--rule',
        'multi-swe-bench',
        '--repeats',
        String(f.repeats),
        '--out',
        valid,
        '--msb-out',
        join(work, 'valid.msb.jsonl'),
        '--swebench-out',
        join(work, 'valid.swebench.jsonl'),
        '--stage-logs',
        join(work, 'stages'),
        ...r.common,
      ],
      join(work, 'validate.log'),
    );
    if (code === 130)
      throw new FaunError('interrupted during faun validate', {
        exitCode: 130,
        hint: 'run the same command again: the instances validated so far are kept (faun validate resumes)',
      });
    if (code !== 0) throw new FaunError(`faun validate failed: see ${join(work, 'validate.log')}`);
  } else writeFileSync(valid, '');
  const instances = jsonl(valid);
  for (const i of instances) r.fig(r.langOf.get(String(i.instance_id)) ?? String(i.language)).instances++;
  const validateFunnel: { reasons?: Record<string, number> } | null = existsSync(`${valid}.funnel.json`)
    ? JSON.parse(readFileSync(`${valid}.funnel.json`, 'utf8'))
    : null;
  console.log(`      ${instances.length} valid; dropped: ${stableStringify(validateFunnel?.reasons ?? {})}`);
  return { instances, validateFunnel };
}

/** With --msb-src: Multi-SWE-bench's own report code over the recorded stage logs, mismatches per language. */
function parityStep(r: RepoRun, instances: Record<string, unknown>[]) {
  const { work, valid } = r;
  const msbSrc = r.f['msb-src'];
  if (!msbSrc || !existsSync(join(work, 'stages'))) return;
  const parity = msbParity(join(work, 'stages'), resolve(msbSrc), recordedSides(`${valid}.journal.jsonl`));
  const validIds = new Set(instances.map((i) => String(i.instance_id)));
  for (const [id, same] of Object.entries(parity.agree)) {
    if (!validIds.has(id)) continue;
    const lang = r.fig(r.langOf.get(id) ?? 'unknown');
    lang.reference_mismatches = (lang.reference_mismatches ?? 0) + (same ? 0 : 1);
  }
  writeFileSync(join(work, 'msb-parity.json'), `${stableStringify(parity, 2)}\n`);
  console.log(
    `      Multi-SWE-bench's report code: ${parity.compared} compared, ${parity.mismatches.length} mismatching fields, ${Object.keys(parity.not_comparable).length} not comparable, ${Object.keys(parity.recorded_flaky).length} recorded with flaky tests dropped → ${join(work, 'msb-parity.json')}`,
  );
}

/**
 * The empty and test-revert controls run their tests (`--run-empty`: a control that is graded without a run
 * cannot fail), once (`--reruns 0`: a re-run can only turn a failure into a flake, never a control's failure
 * into a pass).
 */
const CONTROL_FLAGS = ['--run-empty', '--reruns', '0'];

/** faun verify of `instancesFile` with `pred` as run `runId`; the resolved instance ids. */
async function verifyRun(r: RepoRun, instancesFile: string, pred: string, runId: string): Promise<string[]> {
  const { work } = r;
  await faun(
    [
      'verify',
      '--instances',
      instancesFile,
      '--predictions',
      pred,
      '--run-id',
      runId,
      '--log-dir',
      join(work, 'logs'),
      '--images',
      'build',
      '--overwrite',
      ...(pred === 'gold' ? [] : CONTROL_FLAGS),
      ...r.common,
    ],
    join(work, `verify-${runId}.log`),
  );
  const report = JSON.parse(readFileSync(join(work, 'logs', runId, 'report.json'), 'utf8')) as {
    resolved_ids: string[];
  };
  return report.resolved_ids;
}

/** With --second-run N: gold N more times, and the instances whose outcome or test statuses differ in any run. */
async function secondGoldRun(r: RepoRun, instances: Record<string, unknown>[], times: number) {
  const ids = Array.from({ length: times }, (_, i) => `real-exec-gold-${i + 2}`);
  for (const id of ids) {
    console.log(`      gold again (run-to-run identity): ${id}`);
    await verifyRun(r, r.valid, 'gold', id);
  }
  const [first, ...again] = ['real-exec-gold', ...ids].map((id) => verdicts(join(r.work, 'logs', id)));
  const differing = instances.filter((i) => {
    const id = String(i.instance_id);
    return again.some((v) => v.get(id) !== first!.get(id));
  });
  for (const i of differing) {
    const lang = r.fig(r.langOf.get(String(i.instance_id)) ?? 'other');
    lang.second_run_mismatches = (lang.second_run_mismatches ?? 0) + 1;
  }
  for (const lang of Object.values(r.figures)) lang.second_run_mismatches ??= 0;
  console.log(
    `      ${times} more gold run(s): ${differing.length} of ${instances.length} with another outcome or test status${differing.length ? `: ${differing.map((i) => i.instance_id).join(', ')}` : ''}`,
  );
}

/** Java: the same instances as SWE-bench rows, on SWE-bench's Java path (one Maven run per test). */
async function javaPath(r: RepoRun, msbResolved: Record<string, Set<number>>) {
  const { work } = r;
  const sweRows = jsonl(join(work, 'valid.swebench.jsonl')).filter(
    (row) => row.log_parser === 'parse_log_maven',
  );
  if (!sweRows.length) return;
  const sweFile = join(work, 'valid.swebench-java.jsonl');
  writeFileSync(sweFile, sweRows.map((row) => JSON.stringify(row)).join('\n') + '\n');
  const sweRevert = writeRevert(join(work, 'revert-tests.swebench.jsonl'), sweRows);
  const differing = new Set<number>();
  for (const [pred, name] of [
    ['gold', 'gold'],
    ['empty', 'empty'],
    [sweRevert, 'revert'],
  ] as const) {
    console.log(`      SWE-bench's Java path: faun verify --predictions ${name} (${sweRows.length} rows)`);
    const resolved = new Set(
      (await verifyRun(r, sweFile, pred, `real-exec-swebench-java-${name}`)).map(prOf),
    );
    for (const row of sweRows) {
      const pr = prOf(String(row.instance_id));
      if (resolved.has(pr) !== msbResolved[name]!.has(pr)) differing.add(pr);
    }
    console.log(`      ${resolved.size}/${sweRows.length} resolved`);
  }
  r.fig('java').swebench_java_mismatches = differing.size;
  console.log(`      SWE-bench's Java path: ${differing.size} instance(s) with another verdict`);
}

/** [3–5/5] gold, empty and test-revert verify of the valid instances, then the second run and Java path. */
async function verifySteps(r: RepoRun, instances: Record<string, unknown>[]) {
  const revert = writeRevert(join(r.work, 'revert-tests.jsonl'), instances);
  const runs: Array<[string, string, keyof LangFigures]> = [
    ['gold', 'gold', 'gold_resolved'],
    ['empty', 'empty', 'empty_resolved'],
    [revert, 'revert', 'revert_resolved'],
  ];
  const msbResolved: Record<string, Set<number>> = {};
  for (const [n, [pred, name, key]] of runs.entries()) {
    console.log(`[${n + 3}/5] faun verify --predictions ${name}`);
    const resolved = await verifyRun(r, r.valid, pred, `real-exec-${name}`);
    for (const id of resolved) (r.fig(r.langOf.get(id) ?? 'other')[key] as number)++;
    msbResolved[name] = new Set(resolved.map(prOf));
    console.log(`      ${resolved.length}/${instances.length} resolved`);
  }
  const times = Number(r.f['second-run']);
  if (times > 0) await secondGoldRun(r, instances, times);
  await javaPath(r, msbResolved);
}

/** build → validate → gold / empty / test-revert verify for one repository's pointers, in `work`. */
async function runRepository(
  repo: string,
  mirror: string,
  usable: Pointer[],
  work: string,
  f: Flags,
): Promise<RepoResult> {
  mkdirSync(work, { recursive: true });
  const figures: Record<string, LangFigures> = {};
  const fig = (lang: string) => (figures[lang] ??= emptyFigures());
  fig(usable[0]!.language).repositories++;
  for (const p of usable) fig(p.language).pointers++;
  // the tree the pointers' environments follow, and the trees they compile
  checkBaseVersions(usable, (p, path) => gitFileAt(mirror, `${p.fix_commit}^`, path), 'pointers');
  const repoDirs = [
    '--repo-dir',
    `${repo}=${mirror}`,
    ...sourceRepoDirs(sourceRepos(usable), (s) => mirrorOf(f.mirrors!, s)),
  ];
  const r: RepoRun = {
    work,
    f,
    repoDirs,
    common: ['--workers', String(f.workers), '--timeout', String(f.timeout), ...repoDirs],
    langOf: new Map(
      usable.map((p) => {
        const [org = '', name = ''] = p.repo.split('/');
        return [MSB.idFor({ org, name, number: p.pr }), p.language];
      }),
    ),
    figures,
    fig,
    valid: join(work, 'valid.jsonl'),
  };
  const { ds, built, buildFunnel } = await buildStep(r, usable);
  const { instances, validateFunnel } = await validateStep(r, ds, built);
  const records: Record<string, InstanceRecord> = {};
  for (const row of instances) {
    const rec = instanceRecord(
      row as unknown as ExecutionInstance,
      suiteCheckOf(r, mirror, row as unknown as ExecutionInstance),
    );
    records[String(row.instance_id)] = rec;
    if (!rec.changes_tests_run) fig(r.langOf.get(String(row.instance_id)) ?? 'other').counted++;
  }
  parityStep(r, instances);
  if (instances.length) await verifySteps(r, instances);
  const up = REAL_EXEC_UPSTREAM[repo];
  return {
    figures,
    build_funnel: buildFunnel.reasons ?? {},
    validate_funnel: validateFunnel?.reasons ?? {},
    upstream: { command: up?.upstream ?? null, image: up?.image ?? null },
    instances: records,
  };
}
