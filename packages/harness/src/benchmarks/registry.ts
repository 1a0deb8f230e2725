/**
 * The benchmarks faun reads (pure), and the lookups everything else goes through: the benchmark a row is
 * in (`benchmarkOfRow`), the one an instance is graded by (`benchmarkOf`), the one a rule names
 * (`benchmarkOfRule`), and the reports a run is written in.
 */
import { type ExecutionInstance, GradingRule } from '@faun/schema';
import type { Benchmark, ReportFormat, Row, RuleName } from './benchmark.ts';
import { FAUN } from './faun.ts';
import { MSB } from './msb.ts';
import { SWEBENCH } from './swebench.ts';
import { SWEBENCH_JAVA } from './swebench-java.ts';

/** Every benchmark, each row form recognised by exactly one. */
export const BENCHMARKS: readonly Benchmark[] = [SWEBENCH, SWEBENCH_JAVA, MSB, FAUN];

/** The rules `faun validate --rule` takes, by name. */
export const RULES: readonly RuleName[] = GradingRule.options;

/** The benchmark whose form `row` is in (SWE-bench when none recognises it: its checks name what is missing). */
export function benchmarkOfRow(row: Row): Benchmark {
  return BENCHMARKS.find((b) => b.recognises(row)) ?? SWEBENCH;
}

/** The benchmark an instance is graded by (its recorded rule; absent = SWE-bench). */
export function benchmarkOf(inst: ExecutionInstance): Benchmark {
  return BENCHMARKS.find((b) => b.holds(inst)) ?? SWEBENCH;
}

/** The benchmark that defines a grading rule. */
export function benchmarkOfRule(rule: RuleName): Benchmark {
  return BENCHMARKS.find((b) => b.rule === rule) ?? SWEBENCH;
}

/** SWE-bench's run report is written for every run. */
export const DEFAULT_REPORT: ReportFormat = SWEBENCH.report;

/** The report formats of a run over `instances`, each with the instances it keeps per-instance files for. */
export function reportFormats(
  instances: readonly ExecutionInstance[],
): Array<{ format: ReportFormat; owned: ExecutionInstance[] }> {
  const out = new Map<ReportFormat, ExecutionInstance[]>([[DEFAULT_REPORT, []]]);
  for (const inst of instances) {
    const f = benchmarkOf(inst).report;
    out.set(f, [...(out.get(f) ?? []), inst]);
  }
  return [...out].map(([format, owned]) => ({ format, owned }));
}

/**
 * The instance id an input id names: the id itself when it is one of `instances`, else the instance whose
 * benchmark lists it among its aliases (an older or other tool's form), else the id unchanged.
 */
export function idResolver(instances: readonly ExecutionInstance[]): (id: string) => string {
  const ids = new Set(instances.map((i) => i.instance_id));
  const alias = new Map<string, string>();
  for (const inst of instances)
    for (const a of benchmarkOf(inst).aliases(inst))
      if (!ids.has(a) && !alias.has(a)) alias.set(a, inst.instance_id);
  return (id) => (ids.has(id) ? id : (alias.get(id) ?? id));
}
