/**
 * Validation of new instances: run the tests without and with the gold patch (each `repeats` times),
 * derive FAIL_TO_PASS / PASS_TO_PASS, drop tests whose status flips between repeats, reject instances
 * with no FAIL_TO_PASS. The derivation itself (`deriveTests`) is pure.
 */
import type { ExecutionInstance, TestStatus } from '@faun/schema';
import type { TestMap } from './parsers/index.ts';
import { repoSource } from './repo.ts';
import { runInstance } from './run-instance.ts';
import type { Backend, Limits } from './sandbox.ts';
import { type EnvSpec, specFor } from './specs.ts';

type Seen = TestStatus | 'ABSENT';
const ok = (s: Seen) => s === 'PASSED' || s === 'XFAIL';

export interface Derived {
  fail_to_pass: string[];
  pass_to_pass: string[];
  /** Tests whose status differed between repeats of the same side. */
  flaky: string[];
}

/** F2P = stably not passing before and stably passing after; P2P = stably passing on both sides. */
export function deriveTests(before: TestMap[], after: TestMap[]): Derived {
  const ids = new Set<string>();
  for (const m of [...before, ...after]) for (const k of Object.keys(m)) ids.add(k);
  const out: Derived = { fail_to_pass: [], pass_to_pass: [], flaky: [] };
  for (const id of [...ids].sort()) {
    const b = before.map((m) => m[id] ?? 'ABSENT');
    const a = after.map((m) => m[id] ?? 'ABSENT');
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
  repeats?: number;
  timeoutS?: number;
  repoDirs?: Record<string, string>;
  cacheDir?: string;
  limits?: Limits;
  specs?: EnvSpec[];
  workers?: number;
  log?: (l: string) => void;
  onDone?: (id: string, ok: boolean) => void;
  signal?: AbortSignal;
}

export interface Validation {
  instance_id: string;
  valid: boolean;
  reason: string | null;
  derived: Derived | null;
  instance: ExecutionInstance | null;
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
  const sides: Record<'before' | 'after', TestMap[]> = { before: [], after: [] };
  const repeats = Math.max(1, opts.repeats ?? 1);
  for (const side of ['before', 'after'] as const) {
    for (let i = 0; i < repeats; i++) {
      const pred = {
        instance_id: inst.instance_id,
        model: 'validate',
        patch: side === 'after' ? inst.patch : '',
      };
      const run = await runInstance({ ...inst, fail_to_pass: [], pass_to_pass: [] }, pred, {
        backend: opts.backend,
        spec,
        source,
        runId: 'validate',
        timeoutS: opts.timeoutS ?? 1800,
        limits: opts.limits,
        log: opts.log,
        extraEnv: { FAUN_REPEAT: String(i) },
        runEmpty: true,
      });
      const o = run.result.outcome;
      if (o === 'apply_failed' || o === 'infra_error' || o === 'timeout' || o === 'bad_input')
        return fail(`${side} run ${i + 1}: ${o}${run.result.error ? ` (${run.result.error})` : ''}`);
      sides[side].push(run.tests);
    }
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

/** Validates instances with parallel workers; results in input order. */
export async function validateInstances(
  instances: ExecutionInstance[],
  opts: ValidateOptions,
): Promise<Validation[]> {
  const out: Validation[] = new Array(instances.length);
  let next = 0;
  const work = async () => {
    while (next < instances.length && !opts.signal?.aborted) {
      const i = next++;
      const inst = instances[i]!;
      try {
        out[i] = await validateOne(inst, opts);
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
