/**
 * Gold health as data: every run of an instance's gold patch (by `faun verify --predictions gold` and by the
 * stability check of `faun validate`) is appended to a health file — when, which run, the verdict, the listed
 * tests that failed, their passes/runs over re-runs, and the contract it ran under — and `faun instances
 * health` reads it back per instance: how often gold failed, and how often each test did.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { InputError } from '@faun/kit';
import { type DeterminismContract, type ExecutionResult, stableStringify } from '@faun/schema';
import { failingTests } from '../grading/flaky.ts';
import { stableTestName } from '../parsers/index.ts';

/** The health file's name inside a log directory (`<log-dir>/gold-health.jsonl`). */
export const HEALTH_FILE = 'gold-health.jsonl';

export interface GoldRun {
  instance_id: string;
  /** ISO time the run finished. */
  date: string;
  run_id: string;
  source: 'verify' | 'validate';
  outcome: ExecutionResult['outcome'];
  /** Listed tests that failed in this run (over its re-runs), by stable name (parsers/stable-names.ts). */
  failing: string[];
  /** Listed tests re-run: passes / runs. */
  test_runs: Record<string, { passes: number; runs: number }> | null;
  contract: DeterminismContract | null;
}

/** Outcomes that say nothing about gold's health (nothing ran, or the machine failed). */
const NOT_A_RUN = new Set(['empty_patch', 'bad_input', 'infra_error']);

/** The health record of one gold result (null when nothing was graded). */
export function goldRun(
  r: ExecutionResult,
  runId: string,
  source: GoldRun['source'],
  date: Date = new Date(),
): GoldRun | null {
  if (NOT_A_RUN.has(r.outcome)) return null;
  return {
    instance_id: r.instance_id,
    date: date.toISOString(),
    run_id: runId,
    source,
    outcome: r.outcome,
    failing: r.outcome === 'resolved' ? [] : failingTests(r.tests_status),
    test_runs: r.test_runs ?? null,
    contract: r.contract ?? null,
  };
}

/** Appends gold runs to the health file (one JSON line each). */
export async function appendGoldRuns(file: string, runs: Array<GoldRun | null>): Promise<void> {
  const lines = runs.filter((r): r is GoldRun => r !== null).map((r) => `${stableStringify(r)}\n`);
  if (!lines.length) return;
  await mkdir(dirname(file), { recursive: true });
  await appendFile(file, lines.join(''));
}

/** Every gold run in the health file (a torn last line, from an interrupted write, is skipped). */
export async function readGoldRuns(file: string): Promise<GoldRun[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new InputError(`no gold health file at ${file}`, {
      hint: 'it is written by faun verify --predictions gold and faun validate (under --log-dir); pass --health FILE',
    });
  }
  const lines = text.split('\n').filter((l) => l.trim());
  const out: GoldRun[] = [];
  for (const [i, line] of lines.entries()) {
    try {
      out.push(JSON.parse(line) as GoldRun);
    } catch {
      if (i === lines.length - 1) break; // the last line was being written
      throw new InputError(`${file}:${i + 1}: not a JSON gold run`, {
        hint: 'the file is append-only JSON lines',
      });
    }
  }
  return out;
}

export interface InstanceHealth {
  instance_id: string;
  runs: number;
  failed: number;
  /** Outcomes of the runs that did not resolve, with counts. */
  outcomes: Record<string, number>;
  last_run: string;
  last_failure: string | null;
  /** Per test that ever failed: failures / runs of the instance, and the rate. */
  tests: Array<{ test: string; failures: number; runs: number; rate: number }>;
}

/** Per instance whose gold ever failed: its runs, failures and per-test failure rates (pure). */
export function healthReport(runs: GoldRun[], all = false): InstanceHealth[] {
  const by = new Map<string, GoldRun[]>();
  for (const r of runs) by.set(r.instance_id, [...(by.get(r.instance_id) ?? []), r]);
  const out: InstanceHealth[] = [];
  for (const [id, rs] of [...by].sort(([a], [b]) => a.localeCompare(b))) {
    const failedRuns = rs.filter((r) => r.outcome !== 'resolved');
    if (!failedRuns.length && !all) continue;
    const failures = new Map<string, number>();
    // by stable name (files written before names were stable may hold a test under two spellings)
    for (const r of rs)
      for (const t of new Set(r.failing.map(stableTestName))) failures.set(t, (failures.get(t) ?? 0) + 1);
    const outcomes: Record<string, number> = {};
    for (const r of failedRuns) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
    const dates = rs.map((r) => r.date).sort();
    out.push({
      instance_id: id,
      runs: rs.length,
      failed: failedRuns.length,
      outcomes,
      last_run: dates.at(-1)!,
      last_failure:
        failedRuns
          .map((r) => r.date)
          .sort()
          .at(-1) ?? null,
      tests: [...failures]
        .map(([test, n]) => ({ test, failures: n, runs: rs.length, rate: n / rs.length }))
        .sort((a, b) => b.rate - a.rate || a.test.localeCompare(b.test)),
    });
  }
  return out;
}

/** The report as lines for a terminal. */
export function healthLines(h: InstanceHealth[], total: number): string[] {
  const lines = [`${h.length} of ${total} instance(s) with gold runs had a gold failure`];
  for (const i of h) {
    const kinds = Object.entries(i.outcomes)
      .map(([o, n]) => `${o} ${n}`)
      .join(', ');
    lines.push(
      `${i.instance_id}: gold failed ${i.failed}/${i.runs} (${kinds || 'none'}); last failure ${i.last_failure ?? '—'}`,
    );
    for (const t of i.tests) lines.push(`  ${(100 * t.rate).toFixed(0)}% ${t.failures}/${t.runs} ${t.test}`);
  }
  return lines;
}
