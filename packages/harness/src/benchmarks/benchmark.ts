/**
 * The reference benchmark as one interface (pure): how a row of it is recognised and read into faun's
 * instance, its ids, how it grades (the reference's parser per repository, its eval type), where its
 * published images are and what runs in them, and the report format its tools read. One module implements
 * it per benchmark (swebench.ts, swebench-java.ts, msb.ts, faun.ts); registry.ts finds the one a row or an
 * instance belongs to. Nothing outside this folder asks which benchmark a row came from.
 */
import type { ExecutionInstance, GradingRule } from '@faun/schema';
import type { ImageNamespaces, PublishedPlan } from '../envs/published.ts';
import type { EvalType } from '../grading/grading-swebench.ts';
import type { ParserName } from '../parsers/index.ts';
import type { FormatInput } from '../report/report-formats.ts';

/** A dataset row as read from JSON. */
export type Row = Record<string, unknown>;

/** The benchmarks faun reads rows of. */
export type BenchmarkName = 'swebench' | 'swebench-java' | 'multi-swe-bench' | 'faun';

/** The grading rules an instance can be held to (`ExecutionInstance.source`). */
export type RuleName = GradingRule;

/** The parts of an instance id: `owner/name` and the pull-request (or issue) number. */
export interface IdParts {
  org: string;
  name: string;
  number: number;
}

/** A row's issue and fix, as the FL and CE task builders take them (`faun build --from-swebench`). */
export interface IssueRow {
  id: string;
  repo: string;
  baseCommit: string;
  patch: string;
  issueNumber: number | null;
  title: string;
  body: string;
  prNumber: number | null;
  prTitle: string;
  prBody: string;
}

/** One reference tool's report file for a run. */
export interface ReportFormat {
  /** The tool's name as `verify` prints it (`SWE-bench report: …`). */
  label: string;
  /** The report written under `dir` for the run's instances; `owned` are the instances this format keeps
   * per-instance files for. Returns the file written and its counts as `verify` prints them. */
  write(ctx: ReportContext, owned: ExecutionInstance[]): Promise<{ path: string; counts: string }>;
}

/** What a report format is written from (see benchmarks/report-write.ts). */
export interface ReportContext {
  reportDir: string;
  runDir: string;
  input: FormatInput;
  /** Instance id → its directory name under `<runDir>/instances`. */
  dirName: (id: string) => string;
}

/** How a reference benchmark's validation runs its stages (`faun validate --rule`). */
export interface ValidationStages {
  /** The sides run, in order, with the name each stage's log carries: `run` = no patch at all, `before` =
   * the test patch, `after` = the test patch and the fix. */
  stages: ReadonlyArray<{
    side: 'run' | 'before' | 'after';
    name: 'run' | 'before' | 'after' | 'test' | 'fix';
  }>;
  /** Each stage's log is read by the reference parser as it is (no exit-status rule). */
  parseAsIs: boolean;
  /** How the lists are derived: from the two sides (`sides`), or by Multi-SWE-bench's three-stage check
   * (`stages`, validate/validate-msb.ts). */
  derive: 'sides' | 'stages';
}

export interface Benchmark {
  readonly name: BenchmarkName;
  /** As the benchmark spells itself. */
  readonly label: string;

  // ---- rows
  /** Whether `row` is in this benchmark's form. */
  recognises(row: Row): boolean;
  /** Whether an instance is graded by this benchmark's rule and formats (false for a row form that keeps
   * the rule each row records). */
  holds(inst: ExecutionInstance): boolean;
  /** The instance a row describes (before schema and safety checks: rows/instances.ts). */
  toInstance(row: Row, where: string): Record<string, unknown>;
  /** The id of a row (and of its instance, its predictions, its items): one per row everywhere. */
  rowId(row: Row): string;
  /** The issue and fix of a row (for FL and CE items); throws an InputError naming the missing field. */
  issueRow(row: Row, where: string): IssueRow;
  /** The row form (field names) its rows are written in: the benchmark whose rows look alike. */
  readonly form: BenchmarkName;
  /** The model name a prediction row of this form gets when it names none. */
  readonly defaultModel: string;

  // ---- ids
  /** This benchmark's id of an instance of `owner/name` at pull-request `number`. */
  idFor(parts: IdParts): string;
  /** The parts of an id in this benchmark's form, or null when it is not one. */
  parseId(id: string): IdParts | null;
  /** Other ids files on disk may carry for an instance of this benchmark (older or other tools' forms). */
  aliases(inst: ExecutionInstance): string[];

  // ---- grading (the rule of the instances it imports)
  readonly rule: RuleName;
  /** The reference's log parser for `repo` (at pull request `pr` where that matters), or null. */
  referenceParser(repo: string, pr: number | null): ParserName | null;
  /** The eval type the reference grades `repo` by when the row names none, or null (the spec's). */
  defaultEvalType(repo: string): EvalType | null;
  /** How `faun validate` runs an instance under this rule. */
  readonly validation: ValidationStages;

  // ---- published images
  /** The published image a row runs in, and what runs there, or null when faun builds its environment. */
  publishedPlan(inst: ExecutionInstance, ns: ImageNamespaces): PublishedPlan | null;

  // ---- reports
  /** The report its tools read (several benchmarks may share one). */
  readonly report: ReportFormat;
}
