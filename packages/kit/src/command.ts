/**
 * The declarative command definition packages use to register `faun` subcommands. The CLI turns each
 * option into a flag, a `FAUN_<FLAG>` environment variable and a config-file key, resolved with one
 * precedence: flag > env > config > default.
 */
import type { Progress, ProgressOptions } from './progress.ts';

export type OptionType = 'string' | 'number' | 'boolean' | 'list';

export interface OptionSpec {
  /** Long flag name without dashes, kebab-case (`log-dir`). */
  name: string;
  short?: string;
  type: OptionType;
  description: string;
  default?: string | number | boolean | string[];
  /** For `string`: the allowed values (bad values get "did you mean"). */
  choices?: string[];
  required?: boolean;
  /** `list`: may be repeated; values are also split on commas. */
  repeatable?: boolean;
  /** Placeholder in help, e.g. `FILE`. */
  arg?: string;
  /**
   * A file the command reads: the CLI checks it is a readable file before the command runs (else a usage
   * error, exit 2), and `-` reads standard input (saved to a temporary file the command then reads).
   */
  input?: boolean;
}

/** The context handed to a command's `run`. */
export interface CommandContext {
  /** Resolved options, keyed by camelCase name; common options included. */
  opts: Record<string, unknown>;
  /** Positional arguments. */
  args: string[];
  /** Where the value of each option came from (flag, env, config, default). */
  sources: Record<string, 'flag' | 'env' | 'config' | 'default'>;
  argv: string[];
  json: boolean;
  quiet: boolean;
  logDir: string;
  /** Human output (suppressed by --quiet; goes to stderr when --json). */
  log(line: string): void;
  /** Machine output for --json (printed to stdout as one JSON document). */
  emitJson(value: unknown): void;
  /** The final result for people: printed even with --quiet (not with --json, which has emitJson). */
  result(line: string): void;
  progress(opts: Omit<ProgressOptions, 'quiet'>): Progress;
}

export interface CommandSpec {
  name: string;
  summary: string;
  description?: string;
  /** Shown under "Examples:" in --help. */
  examples?: string[];
  options?: OptionSpec[];
  /** Positional arguments, e.g. `[subcommand]`. */
  args?: string;
  /** Returns the exit code (0 ok, 1 run failed), or nothing for 0. */
  run(ctx: CommandContext): Promise<number | undefined> | number | undefined;
  /** Nested subcommands (e.g. `serve keys create`). */
  subcommands?: CommandSpec[];
}

/** `--task qa|fl|ce` and `--dataset FILE`, the pair every command over a task dataset takes. */
export const taskDatasetOptions: readonly OptionSpec[] = [
  {
    name: 'task',
    type: 'string',
    choices: ['qa', 'fl', 'ce'],
    required: true,
    description: 'task of the dataset',
  },
  {
    name: 'dataset',
    type: 'string',
    arg: 'FILE',
    required: true,
    input: true,
    description: 'task dataset (JSONL)',
  },
];

/** The key of an option in `CommandContext.opts`: its kebab-case name in camelCase (`log-dir` → `logDir`). */
export function optionKey(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

export function defineCommand(spec: CommandSpec): CommandSpec {
  return spec;
}
