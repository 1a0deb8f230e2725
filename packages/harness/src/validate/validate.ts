/**
 * Validation of new instances: run the tests without and with the gold patch (each `repeats` times),
 * derive FAIL_TO_PASS / PASS_TO_PASS, drop tests whose status flips between repeats, reject instances
 * with no FAIL_TO_PASS. With the multi-swe-bench rule, Multi-SWE-bench's three stages and validity check
 * instead (validate-msb.ts). The derivations themselves (`deriveTests`, `deriveMsb`) are pure.
 */
import type { ExecutionInstance, TestStatus } from '@faun/schema';
import type { RuleName } from '../benchmarks/benchmark.ts';
import { benchmarkOfRule } from '../benchmarks/registry.ts';
import { rowGrading } from '../benchmarks/row-grading.ts';
import { trustedRow } from '../envs/image-trust.ts';
import { repoSource } from '../envs/repo.ts';
import { type EnvSpec, specFor } from '../envs/specs.ts';
import { framedSection } from '../grading/framing.ts';
import { type ParserName, parseLog, stableTestMap, stableTestName, type TestMap } from '../parsers/index.ts';
import { runInstance } from '../run/run-instance.ts';
import type { Backend, Limits } from '../sandbox/sandbox.ts';
import { type ValidationJournal, validationKey } from './validate-journal.ts';
import { deriveMsb, type MsbDerived, msbGradingOf } from './validate-msb.ts';
import {
  checkStability,
  DEFAULT_GOLD_CHECKS,
  DEFAULT_GOLD_PARALLEL,
  type Stability,
  unstableReason,
} from './validate-stability.ts';

type Seen = TestStatus | 'ABSENT';
const ok = (s: Seen) => s === 'PASSED' || s === 'XFAIL';

export interface Derived {
  fail_to_pass: string[];
  pass_to_pass: string[];
  /** Tests whose status differed between repeats of the same side. */
  flaky: string[];
}

/**
 * F2P = stably not passing before and stably passing after; P2P = stably passing on both sides. Runs are
 * compared by stable name (parsers/stable-names.ts), so a test read as `x` in one run and `x ` in another (a
 * duration printed once) is one test; it is listed as the first run after the fix spelt it.
 */
export function deriveTests(before: TestMap[], after: TestMap[]): Derived {
  const spelling = new Map<string, string>();
  for (const m of [...after, ...before])
    for (const k of Object.keys(m)) {
      const s = stableTestName(k);
      if (s && !spelling.has(s)) spelling.set(s, k);
    }
  const [sb, sa] = [before.map(stableTestMap), after.map(stableTestMap)];
  const seen = (m: TestMap, n: string): Seen => (Object.hasOwn(m, n) ? m[n]! : 'ABSENT');
  const out: Derived = { fail_to_pass: [], pass_to_pass: [], flaky: [] };
  const ids = [...spelling]
    .map(([n, id]) => [id, n] as const)
    .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  for (const [id, n] of ids) {
    const b = sb.map((m) => seen(m, n));
    const a = sa.map((m) => seen(m, n));
    const stable = (xs: Seen[]) => xs.every((x) => ok(x) === ok(xs[0]!));
    if (!stable(b) || !stable(a)) {
      out.flaky.push(id);
      continue;
    }
    if (!ok(a[0]!)) continue;
    if (ok(b[0]!)) out.pass_to_pass.push(id);
    else out.fail_to_pass.push(id);
  }
  return out;
}

export interface ValidateOptions {
  backend: Backend;
  /**
   * `swebench` (default): two sides, test patch without and with the fix. `multi-swe-bench`: its three
   * stages (run, test, fix) and its validity check (see validate-msb.ts).
   */
  rule?: RuleName;
  repeats?: number;
  timeoutS?: number;
  repoDirs?: Record<string, string>;
  cacheDir?: string;
  limits?: Limits;
  specs?: EnvSpec[];
  workers?: number;
  log?: (l: string) => void;
  /** `reused`: the result came from the journal, nothing was run. */
  onDone?: (id: string, ok: boolean, reused?: boolean) => void;
  /**
   * Finished validations by key (`validationKey`): instances found there are not run again, each new
   * result is put there as soon as it is known (`faun validate` resumes from `<out>.journal.jsonl`).
   */
  journal?: ValidationJournal;
  /**
   * Receives each stage run's test output (the section the parser reads), for keeping the logs beside
   * the rows (`faun validate --stage-logs DIR`) and re-deriving them with other tools.
   */
  onStageLog?: (log: StageLog) => Promise<void> | void;
  signal?: AbortSignal;
  /** Use a row's own `image` (only from `imageAllow` namespaces); off: the image is ignored (image-trust.ts). */
  trustRows?: boolean;
  imageAllow?: string[];
  /** Rounds of gold runs a valid instance must pass, all of them, to be kept (default 3; 0 = no check). */
  goldChecks?: number;
  /** Gold runs side by side in each round (default 2). */
  goldParallel?: number;
  /** Where the stability check's gold runs are recorded (health.ts). */
  healthFile?: string | null;
}

/**
 * One stage run's test output. Stages: run / test / fix (multi-swe-bench rule), before / after, and
 * gold-check (the gold runs of the stability check).
 */
export interface StageLog {
  instance: ExecutionInstance;
  stage: 'run' | 'test' | 'fix' | 'before' | 'after' | 'gold-check';
  /** 0-based repeat (`gold-check`: the stability check's runs in order). */
  repeat: number;
  /** The parser that read it. */
  parser: ParserName | null;
  text: string;
}

export interface Validation {
  instance_id: string;
  valid: boolean;
  reason: string | null;
  derived: Derived | null;
  /** With the multi-swe-bench rule: the three stages' derivation. */
  msb?: MsbDerived | null;
  instance: ExecutionInstance | null;
  /** The gold stability check of a valid instance (absent: not checked). */
  stability?: Stability;
}

/** The parser that reads an instance's logs (null: its row names none faun has). */
function parserOf(inst: ExecutionInstance, spec: EnvSpec): ParserName | null {
  const grading = rowGrading(inst, spec);
  return 'problem' in grading ? null : grading.parser;
}

async function validateOne(inst: ExecutionInstance, opts: ValidateOptions): Promise<Validation> {
  const spec = specFor(inst, opts.specs);
  const fail = (reason: string): Validation => ({
    instance_id: inst.instance_id,
    valid: false,
    reason,
    derived: null,
    instance: null,
  });
  if (!spec) return fail(`no environment spec for ${inst.repo}`);
  const source = await repoSource(inst.repo, opts.repoDirs ?? {}, opts.cacheDir ?? '/var/cache/faun/repos');
  const repeats = Math.max(1, opts.repeats ?? 1);
  const benchmark = benchmarkOfRule(opts.rule ?? 'swebench');
  const rule = benchmark.validation;
  // run = no patch at all, before = test patch, after = test patch + fix: the stages the rule runs
  const stages = rule.stages.map((s) => s.side);
  const sides: Record<'run' | 'before' | 'after', TestMap[]> = { run: [], before: [], after: [] };
  const name = Object.fromEntries(rule.stages.map((s) => [s.side, s.name])) as Record<
    'run' | 'before' | 'after',
    StageLog['stage']
  >;
  const parser = parserOf(inst, spec);
  for (const side of stages) {
    for (let i = 0; i < repeats; i++) {
      const pred = {
        instance_id: inst.instance_id,
        model: 'validate',
        patch: side === 'after' ? inst.patch : '',
      };
      const row = {
        ...inst,
        test_patch: side === 'run' ? '' : inst.test_patch,
        fail_to_pass: [],
        pass_to_pass: [],
        msb: null,
      };
      const run = await runInstance(row, pred, {
        backend: opts.backend,
        spec,
        source,
        runId: 'validate',
        timeoutS: opts.timeoutS ?? 1800,
        limits: opts.limits,
        log: opts.log,
        extraEnv: { FAUN_REPEAT: String(i) },
        runEmpty: true,
        // validation has its own repeats: no flake re-runs inside one
        reruns: 0,
      });
      const out = run.artifacts['test_output.txt'];
      const text = framedSection(out) ?? out;
      if (opts.onStageLog)
        await opts.onStageLog({ instance: inst, stage: name[side], repeat: i, parser, text });
      const o = run.result.outcome;
      if (o === 'apply_failed' || o === 'infra_error' || o === 'timeout' || o === 'bad_input')
        return fail(`${name[side]} run ${i + 1}: ${o}${run.result.error ? ` (${run.result.error})` : ''}`);
      if (o === 'invalid_log' && run.result.error === 'the test patch did not apply')
        return fail(`${name[side]} run ${i + 1}: the test patch did not apply`);
      // Multi-SWE-bench's report takes each stage's parse as it is. SWE-bench's log rule (a failing exit
      // with no failing test read means no results) would drop stages whose failures the parser does not
      // read: ctest's `***Failed  0.02 sec`, which Multi-SWE-bench's ctest parser leaves out.
      sides[side].push(rule.parseAsIs && parser ? parseLog(parser, text) : run.tests);
    }
  }
  if (rule.derive === 'stages') {
    const m = deriveMsb(sides.run, sides.before, sides.after);
    const derived: Derived = { fail_to_pass: m.fail_to_pass, pass_to_pass: m.pass_to_pass, flaky: m.flaky };
    if (!m.valid) return { ...fail(m.error), derived, msb: m };
    return {
      instance_id: inst.instance_id,
      valid: true,
      reason: null,
      derived,
      msb: m,
      instance: {
        ...inst,
        fail_to_pass: m.fail_to_pass,
        pass_to_pass: m.pass_to_pass,
        source: benchmark.rule,
        msb: msbGradingOf(m),
      },
    };
  }
  const derived = deriveTests(sides.before, sides.after);
  if (!derived.fail_to_pass.length) return { ...fail('no FAIL_TO_PASS test'), derived };
  return {
    instance_id: inst.instance_id,
    valid: true,
    reason: null,
    derived,
    instance: { ...inst, fail_to_pass: derived.fail_to_pass, pass_to_pass: derived.pass_to_pass },
  };
}

const checksOf = (o: ValidateOptions) => Math.max(0, o.goldChecks ?? DEFAULT_GOLD_CHECKS);
const parallelOf = (o: ValidateOptions) => Math.max(1, o.goldParallel ?? DEFAULT_GOLD_PARALLEL);

/** A stored validation needs no (further) stability check under these options. */
function stableEnough(v: Validation, o: ValidateOptions): boolean {
  if (!v.valid || checksOf(o) === 0) return true;
  return v.stability?.checks === checksOf(o) && v.stability.parallel === parallelOf(o);
}

/** The validation as reported: an unstable instance is not valid, and says why. */
function final(v: Validation): Validation {
  if (!v.valid || !v.stability || v.stability.stable) return v;
  return { ...v, valid: false, reason: unstableReason(v.stability) };
}

/**
 * The instances a validation keeps (the rows of `--out`, `--msb-out`, `--swebench-out`): those of the valid
 * results only. An unstable instance keeps its derived instance (its report names the tests) but is not valid.
 */
export const keptInstances = (results: Validation[]): Validation[] =>
  results.filter((r) => r.valid && r.instance !== null);

/** A valid instance with its gold stability checked (as given when invalid or the check is off). */
async function withStabilityCheck(
  v: Validation,
  inst: ExecutionInstance,
  o: ValidateOptions,
): Promise<Validation> {
  if (!v.valid || !v.instance || checksOf(o) === 0 || o.signal?.aborted) return v;
  const spec = specFor(v.instance, o.specs);
  if (!spec) return v;
  const source = await repoSource(inst.repo, o.repoDirs ?? {}, o.cacheDir ?? '/var/cache/faun/repos');
  const stability = await checkStability(
    v.instance,
    {
      backend: o.backend,
      spec,
      source,
      runId: 'validate',
      timeoutS: o.timeoutS ?? 1800,
      limits: o.limits,
      log: o.log,
      signal: o.signal,
    },
    checksOf(o),
    parallelOf(o),
    o.healthFile ?? null,
    o.onStageLog
      ? (repeat, text) =>
          o.onStageLog?.({
            instance: inst,
            stage: 'gold-check',
            repeat,
            parser: parserOf(v.instance ?? inst, spec),
            text,
          })
      : null,
  );
  // interrupted: the check is not finished, so it says nothing (the next run does it again)
  if (o.signal?.aborted) return v;
  return { ...v, stability };
}

/** Validates instances with parallel workers; results in input order. */
export async function validateInstances(
  instances: ExecutionInstance[],
  opts: ValidateOptions,
): Promise<Validation[]> {
  const out: Validation[] = new Array(instances.length);
  const repeats = Math.max(1, opts.repeats ?? 1);
  const rows = instances.map((i) => trustedRow(i, opts.trustRows ?? false, opts.imageAllow));
  let next = 0;
  const work = async () => {
    while (next < instances.length && !opts.signal?.aborted) {
      const i = next++;
      const row = rows[i]!;
      if ('problem' in row) {
        const id = instances[i]!.instance_id;
        out[i] = { instance_id: id, valid: false, reason: row.problem, derived: null, instance: null };
        opts.onDone?.(id, false);
        continue;
      }
      const inst = row.row;
      const key = validationKey(inst, specFor(inst, opts.specs), opts.rule ?? 'swebench', repeats);
      const stored = opts.journal?.get(key);
      const checked = stored && stableEnough(stored, opts);
      if (stored && checked) {
        out[i] = final(stored);
        opts.onDone?.(inst.instance_id, out[i]!.valid, true);
        continue;
      }
      try {
        const v = stored ?? (await validateOne(inst, opts));
        if (!stored) await opts.journal?.put(key, v);
        const withStability = await withStabilityCheck(v, inst, opts);
        if (withStability !== v) await opts.journal?.put(key, withStability);
        out[i] = final(withStability);
      } catch (e) {
        out[i] = {
          instance_id: inst.instance_id,
          valid: false,
          reason: (e as Error).message,
          derived: null,
          instance: null,
        };
      }
      opts.onDone?.(inst.instance_id, out[i]!.valid);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.workers ?? 1) }, work));
  return out.filter(Boolean);
}
