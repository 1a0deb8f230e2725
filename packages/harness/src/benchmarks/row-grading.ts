/**
 * How a row is graded (pure): which parser reads its log, whether ids are matched exactly as the reference
 * matches them, and which eval type applies. The row's own `log_parser` / `eval_type` (SWE-bench v5) win;
 * then the reference's per-repository choice (the instance's benchmark: benchmarks/); then the environment
 * spec's parser.
 */
import type { ExecutionInstance } from '@faun/schema';
import type { EnvSpec } from '../envs/specs.ts';
import type { EvalType } from '../grading/grading-swebench.ts';
import { isParserName, type ParserName } from '../parsers/index.ts';
import { benchmarkOf } from './registry.ts';

/** SWE-bench's parser names (its `PARSER_REGISTRY` keys, as v5 rows carry them) → faun's parser. */
export const REFERENCE_PARSER_NAMES: Record<string, ParserName> = {
  parse_log_pytest: 'pytest',
  parse_log_pytest_options: 'pytest-options',
  parse_log_pytest_v2: 'pytest-v2',
  parse_log_matplotlib: 'matplotlib',
  parse_log_seaborn: 'seaborn',
  parse_log_django: 'django',
  parse_log_sympy: 'sympy',
  parse_log_ant: 'swebench-ant',
  parse_log_carbon: 'swebench-carbon',
  parse_log_cargo: 'swebench-cargo',
  parse_log_chart_js: 'swebench-chart-js',
  parse_log_emotion: 'swebench-emotion',
  parse_log_googletest: 'swebench-googletest',
  parse_log_gotest: 'swebench-gotest',
  parse_log_gradle_custom: 'swebench-gradle',
  parse_log_grommet: 'swebench-grommet',
  parse_log_highlightjs: 'swebench-highlightjs',
  parse_log_jest: 'swebench-jest',
  parse_log_jest_json: 'swebench-jest-json',
  parse_log_jq: 'swebench-jq',
  parse_log_karma: 'swebench-karma',
  parse_log_marked: 'swebench-marked',
  parse_log_maven: 'swebench-maven',
  parse_log_redis: 'swebench-redis',
  parse_log_tap: 'swebench-tap',
  parse_log_vitest: 'swebench-vitest',
  parse_log_micropython_test: 'swebench-micropython',
};

export interface RowGrading {
  parser: ParserName;
  /** The parser is the reference's own for this row: ids are matched exactly. */
  exactIds: boolean;
  evalType: EvalType;
}

/** A row that cannot be graded as given; `message` says which field and what to do. */
export interface RowProblem {
  problem: string;
}

/** The grading of one row, or the problem that prevents it. */
export function rowGrading(inst: ExecutionInstance, spec: EnvSpec): RowGrading | RowProblem {
  const benchmark = benchmarkOf(inst);
  let evalType: EvalType = spec.evalType ?? 'pass_and_fail';
  if (inst.eval_type) {
    if (inst.eval_type !== 'pass_and_fail' && inst.eval_type !== 'fail_only')
      return { problem: `unknown eval_type '${inst.eval_type}' (expected pass_and_fail or fail_only)` };
    evalType = inst.eval_type;
  } else evalType = benchmark.defaultEvalType(inst.repo) ?? evalType;
  if (inst.log_parser) {
    const name = inst.log_parser;
    const parser = isParserName(name) ? name : REFERENCE_PARSER_NAMES[name];
    if (!parser)
      return {
        problem: `unknown log_parser '${name}' (known: ${Object.keys(REFERENCE_PARSER_NAMES).join(', ')}, or a faun parser name)`,
      };
    // a reference's own name, or faun's port of a reference parser (msb-*, swebench-*): ids as it reads them
    return { parser, exactIds: !isParserName(name) || /^(msb|swebench)-/.test(name), evalType };
  }
  const ref = benchmark.referenceParser(inst.repo, prNumber(inst.instance_id));
  if (ref) return { parser: ref, exactIds: true, evalType };
  return { parser: spec.parser, exactIds: false, evalType };
}

/** The PR number in an instance id (`owner__repo-N` or `owner/repo:pr-N`), or null. */
export function prNumber(instanceId: string): number | null {
  const m = /(?::pr-|-)(\d+)$/.exec(instanceId);
  return m?.[1] ? Number(m[1]) : null;
}
