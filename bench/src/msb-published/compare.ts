/**
 * faun's derived test sets against a published row's (pure): per category the tests the row lists that
 * faun did not derive (`missing`) and those faun derived that the row does not list (`extra`); whether faun
 * ran the same suite (its run stage's tests against the row's `run_result`); the per-instance record and
 * the summary line.
 */
import { SET_NAMES, type TestSets } from './rows.ts';
import type { Deviation } from './upstream.ts';

export interface SetDiff {
  identical: boolean;
  /** In the published set, not in faun's. */
  missing: string[];
  /** In faun's set, not in the published one. */
  extra: string[];
}

/** `missing` / `extra` of two name lists (sorted output). */
export function diff(faun: readonly string[], published: readonly string[]): SetDiff {
  const f = new Set(faun);
  const p = new Set(published);
  const missing = [...p].filter((t) => !f.has(t)).sort();
  const extra = [...f].filter((t) => !p.has(t)).sort();
  return { identical: !missing.length && !extra.length, missing, extra };
}

export type Comparison = Record<(typeof SET_NAMES)[number], SetDiff>;

export function compareSets(faun: TestSets, published: TestSets): Comparison {
  return Object.fromEntries(SET_NAMES.map((k) => [k, diff(faun[k], published[k])])) as Comparison;
}

/** One instance's result file (`OUT/<instance_id>.json`). */
export interface InstanceRecord {
  instance_id: string;
  repo: string;
  number: number;
  base_sha: string;
  /** Null when faun ran it; otherwise why it could not (no environment, a build or run failure). */
  error: string | null;
  upstream_command: string | null;
  command: string | null;
  deviations: Deviation[];
  faun: TestSets | null;
  published: TestSets;
  comparison: Comparison | null;
  /** faun's run-stage tests against the published run_result's: the same suite ran when both are empty. */
  tests_run: { missing: string[]; extra: string[] } | null;
  gold_resolved: boolean | null;
  empty_resolved: boolean | null;
  test_only_resolved: boolean | null;
  /** Each run's outcome (run, test / empty, fix / gold, test-only). */
  outcomes: Record<string, string>;
}

export interface Summary {
  instances: number;
  ran: number;
  errors: number;
  f2p_identical: number;
  all_identical: number;
  same_tests_run: number;
  gold_resolved: number;
  /** Instances whose empty or test-only control resolved (the bench fails on any). */
  controls_resolved: string[];
  p2p_missing: number;
  p2p_extra: number;
  n2p_missing: number;
  n2p_extra: number;
}

export function summarize(records: readonly InstanceRecord[]): Summary {
  const ran = records.filter((r) => r.comparison);
  const sum = (f: (c: Comparison) => number) => ran.reduce((n, r) => n + f(r.comparison!), 0);
  return {
    instances: records.length,
    ran: ran.length,
    errors: records.length - ran.length,
    f2p_identical: ran.filter((r) => r.comparison!.f2p_tests.identical).length,
    all_identical: ran.filter((r) => SET_NAMES.every((k) => r.comparison![k].identical)).length,
    same_tests_run: ran.filter((r) => r.tests_run && !r.tests_run.missing.length && !r.tests_run.extra.length)
      .length,
    gold_resolved: records.filter((r) => r.gold_resolved).length,
    controls_resolved: records
      .filter((r) => r.empty_resolved || r.test_only_resolved)
      .map((r) => r.instance_id)
      .sort(),
    p2p_missing: sum((c) => c.p2p_tests.missing.length),
    p2p_extra: sum((c) => c.p2p_tests.extra.length),
    n2p_missing: sum((c) => c.n2p_tests.missing.length),
    n2p_extra: sum((c) => c.n2p_tests.extra.length),
  };
}

/** The one-line summary printed at the end. */
export function summaryLine(s: Summary): string {
  return (
    `msb-published: ${s.ran}/${s.instances} ran (${s.errors} not run); f2p identical ${s.f2p_identical}/${s.ran}; ` +
    `all sets identical ${s.all_identical}/${s.ran}; same suite ${s.same_tests_run}/${s.ran}; ` +
    `p2p missing ${s.p2p_missing} extra ${s.p2p_extra}; n2p missing ${s.n2p_missing} extra ${s.n2p_extra}; ` +
    `gold resolved ${s.gold_resolved}/${s.instances}; controls resolved ${s.controls_resolved.length}` +
    (s.controls_resolved.length ? ` (${s.controls_resolved.join(', ')})` : '')
  );
}

const yn = (b: boolean | null) => (b === null ? '–' : b ? 'yes' : 'no');
const counts = (d: SetDiff) => (d.identical ? '=' : `−${d.missing.length} +${d.extra.length}`);

/**
 * The README table (Markdown): per instance whether FAIL_TO_PASS is identical, the other categories'
 * differences (−missing +extra, `=` when identical), whether the same suite ran, gold and the controls;
 * an instance faun did not run shows its reason.
 */
export function markdownTable(records: readonly InstanceRecord[]): string {
  const head = [
    '| instance | f2p identical | p2p | n2p | s2p | same suite (run stage vs run_result) | gold resolved | empty resolved | test-only resolved |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  const rows = records.map((r) => {
    if (!r.comparison)
      return `| ${r.instance_id} | not run: ${r.error ?? 'unknown'} | | | | | ${yn(r.gold_resolved)} | ${yn(r.empty_resolved)} | ${yn(r.test_only_resolved)} |`;
    const c = r.comparison;
    const suite = r.tests_run
      ? r.tests_run.missing.length || r.tests_run.extra.length
        ? `no (−${r.tests_run.missing.length} +${r.tests_run.extra.length})`
        : 'yes'
      : '–';
    return `| ${r.instance_id} | ${yn(c.f2p_tests.identical)}${c.f2p_tests.identical ? '' : ` (${counts(c.f2p_tests)})`} | ${counts(c.p2p_tests)} | ${counts(c.n2p_tests)} | ${counts(c.s2p_tests)} | ${suite} | ${yn(r.gold_resolved)} | ${yn(r.empty_resolved)} | ${yn(r.test_only_resolved)} |`;
  });
  return `${[...head, ...rows].join('\n')}\n`;
}
