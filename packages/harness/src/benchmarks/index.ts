/**
 * `@faun/harness/benchmarks`: the reference benchmarks alone (pure but for writing reports), for packages that
 * read benchmark rows without loading the execution harness.
 */
export type { Benchmark, BenchmarkName, IdParts, IssueRow, RuleName } from './benchmark.ts';
export { FAUN } from './faun.ts';
export { MSB } from './msb.ts';
export { BENCHMARKS, benchmarkOf, benchmarkOfRow, benchmarkOfRule, idResolver, RULES } from './registry.ts';
export { SWEBENCH } from './swebench.ts';
export { SWEBENCH_JAVA } from './swebench-java.ts';
