/**
 * Builds the commander program from the registry and runs one command: option resolution
 * (flag > env > config > default), common flags, "did you mean", exit codes (0 ok, 1 failed, 2 usage).
 */
import { join } from 'node:path';
import {
  type CommandContext,
  type CommandSpec,
  createProgress,
  didYouMean,
  FAUN_VERSION,
  FaunError,
  type OptionSpec,
  optionKey,
  UsageError,
} from '@faun/kit';
import { JsonlError } from '@faun/schema/io';
import { Command, CommanderError, Option } from 'commander';
import { envName, loadConfig, resolveOptions } from './config.ts';
import { prepareInputs } from './inputs.ts';
import { REGISTRY } from './registry.ts';

/** Flags every command accepts. */
export const COMMON_OPTIONS: OptionSpec[] = [
  {
    name: 'log-dir',
    type: 'string',
    arg: 'DIR',
    description: 'where run directories are written',
    default: 'logs',
  },
  { name: 'json', type: 'boolean', description: 'machine-readable output on stdout', default: false },
  { name: 'quiet', type: 'boolean', description: 'print only errors and the final result', default: false },
  {
    name: 'config',
    type: 'string',
    arg: 'FILE',
    description: 'JSON config file (default ./faun.config.json)',
  },
];

/** Flags only the commands that process many items take (see `CommandEntry.common`). */
export const ITEM_OPTIONS: Record<'limit' | 'concurrency', OptionSpec> = {
  limit: {
    name: 'limit',
    type: 'number',
    arg: 'N',
    description: 'process only the first N items (for testing)',
  },
  concurrency: {
    name: 'concurrency',
    type: 'number',
    arg: 'N',
    description: 'parallel work items',
    default: 4,
  },
};

const PRECEDENCE_HELP = `
Every option can also be set with an environment variable FAUN_<OPTION> (e.g. FAUN_LOG_DIR=runs) or
FAUN_<COMMAND>_<OPTION> for one command only (e.g. FAUN_CRAWL_CONCURRENCY=8, which wins), or in a JSON
config file (--config, $FAUN_CONFIG, or ./faun.config.json) where a command's own section ("crawl": {...})
wins over top-level keys. Precedence: flag > environment > config file > default.
Exit codes: 0 ok, 1 run failed, 2 usage error, 130 interrupted (Ctrl+C; the run can be resumed).`;

function addOption(cmd: Command, spec: OptionSpec): void {
  const flag = `${spec.short ? `-${spec.short}, ` : ''}--${spec.name}`;
  const arg =
    spec.type === 'boolean'
      ? ''
      : spec.type === 'list'
        ? ` <${spec.arg ?? 'items'}...>`
        : spec.choices?.length && !spec.arg
          ? ` <${spec.choices.join('|')}>`
          : ` <${spec.arg ?? 'value'}>`;
  const defaultText = spec.default === undefined ? '' : ` (default: ${JSON.stringify(spec.default)})`;
  const stdin = spec.input ? ' (- reads standard input)' : '';
  const opt = new Option(
    `${flag}${arg}`,
    `${spec.description}${stdin}${defaultText} [env ${envName(spec.name)}]`,
  );
  if (spec.type === 'list') opt.argParser((v: string, prev: string[] | undefined) => [...(prev ?? []), v]);
  if (spec.type === 'boolean') cmd.addOption(new Option(`--no-${spec.name}`).hideHelp());
  cmd.addOption(opt);
}

/** A command's options: its own, then the common ones it does not redefine. */
function optionsOf(spec: CommandSpec, extra: OptionSpec[]): OptionSpec[] {
  return [
    ...(spec.options ?? []),
    ...[...COMMON_OPTIONS, ...extra].filter((c) => !spec.options?.some((o) => o.name === c.name)),
  ];
}

function buildCommand(
  parent: Command,
  spec: CommandSpec,
  path: string[],
  out: { ran?: Promise<number> },
  extra: OptionSpec[] = [],
): void {
  const cmd = parent.command(spec.name).description(spec.summary);
  if (spec.args) cmd.arguments(spec.args);
  const all = optionsOf(spec, extra);
  for (const o of all) addOption(cmd, o);
  const examples = spec.examples?.length
    ? `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`
    : '';
  cmd.addHelpText(
    'after',
    `${spec.description ? `\n${spec.description}\n` : ''}${examples}${PRECEDENCE_HELP}`,
  );
  cmd.showSuggestionAfterError(true);
  // Options after a nested subcommand belong to it, even when this command declares the same flag.
  if (spec.subcommands?.length) cmd.enablePositionalOptions();
  for (const sub of spec.subcommands ?? []) buildCommand(cmd, sub, [...path, spec.name], out);
  cmd.action(async (...actionArgs: unknown[]) => {
    const command = actionArgs[actionArgs.length - 1] as Command;
    const flags = command.opts() as Record<string, unknown>;
    // commander sets `--no-x` as x=false and fills x=true default for negatable pairs; keep only explicit ones.
    for (const o of all)
      if (command.getOptionValueSource(optionKey(o.name)) !== 'cli') delete flags[optionKey(o.name)];
    out.ran = runSpec(spec, [...path, spec.name], flags, command.args, all);
  });
}

async function runSpec(
  spec: CommandSpec,
  path: string[],
  flags: Record<string, unknown>,
  args: string[],
  all: OptionSpec[],
) {
  const config = loadConfig(typeof flags.config === 'string' ? flags.config : undefined);
  const { values, sources } = resolveOptions(path[0] ?? spec.name, all, flags, config);
  if (values.limit !== undefined) {
    const n = Number(values.limit);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`--limit ${String(values.limit)}: expected a whole number ≥ 1`, {
        hint: 'drop --limit to process every item',
      });
  }
  const cleanup = await prepareInputs(all, values);
  const json = Boolean(values.json);
  const quiet = Boolean(values.quiet);
  const ctx: CommandContext = {
    opts: values,
    args,
    sources,
    argv: process.argv.slice(2),
    json,
    quiet,
    logDir: String(values.logDir ?? 'logs'),
    log: (line) => {
      if (!quiet) (json ? process.stderr : process.stdout).write(`${line}\n`);
    },
    emitJson: (value) => {
      if (json) process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    },
    result: (line) => {
      if (!json) process.stdout.write(`${line}\n`);
    },
    progress: (o) => createProgress({ ...o, quiet }),
  };
  try {
    return (await spec.run(ctx)) ?? 0;
  } finally {
    cleanup();
  }
}

/** Runs the CLI with `argv` (without the node/bun and script entries); returns the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const program = new Command('faun')
    .description('faun — benchmark language models on real GitHub issues (FAUN-Eval)')
    .version(FAUN_VERSION, '-V, --version')
    .showSuggestionAfterError(true)
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({
      writeErr: (s) => process.stderr.write(s),
      outputError: (s, write) => write(s.replace(/^error: /, 'faun: ')),
    })
    .addHelpText(
      'after',
      `\nExamples:\n  $ faun demo\n  $ faun crawl --repos pallets/flask --db faun.duckdb\n  $ faun score --task fl --dataset fl.jsonl --predictions preds.jsonl\n${PRECEDENCE_HELP}`,
    );
  const out: { ran?: Promise<number> } = {};
  const positional = argv.filter((a) => !a.startsWith('-'));
  const wanted = positional[0] === 'help' ? positional[1] : positional[0];
  const entry = REGISTRY.find((e) => e.name === wanted);
  if (wanted && !entry && !(positional[0] === 'help' && positional.length === 1)) {
    process.stderr.write(
      `faun: unknown command '${wanted}'.${didYouMean(
        wanted,
        REGISTRY.map((r) => r.name),
      )}\n  hint: faun --help lists the commands\n`,
    );
    return 2;
  }
  for (const e of REGISTRY) {
    if (e === entry)
      buildCommand(
        program,
        await e.load(),
        [],
        out,
        (e.common ?? []).map((k) => ITEM_OPTIONS[k]),
      );
    else program.command(e.name).description(e.summary);
  }
  const exitOverride = (c: Command) => {
    c.exitOverride();
    for (const s of c.commands) exitOverride(s);
  };
  exitOverride(program);
  lastProgram = program;
  try {
    await program.parseAsync(argv, { from: 'user' });
    if (out.ran) return await out.ran;
    if (!wanted) {
      program.outputHelp();
      return 2;
    }
    return 0;
  } catch (e) {
    return handleError(e, argv);
  }
}

let lastProgram: Command | null = null;

/** Names along the command path given in argv, for suggestions on a mistyped subcommand. */
function subcommandNames(argv: string[]): { all: Set<string>; parent: string; children: string[] } {
  const all = new Set<string>();
  let cmd = lastProgram;
  let parent = 'faun';
  let children: string[] = [];
  for (const a of argv.filter((x) => !x.startsWith('-'))) {
    const next = cmd?.commands.find((c) => c.name() === a);
    if (!next) break;
    all.add(a);
    parent = a;
    cmd = next;
    children = next.commands.map((c) => c.name());
  }
  return { all, parent, children };
}

const IO_PROBLEMS: Record<string, string> = {
  ENOENT: 'no such file or folder',
  EISDIR: 'is a folder, not a file',
  ENOTDIR: 'a part of the path is not a folder',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EEXIST: 'already exists',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
};

export function handleError(e: unknown, argv: string[] = []): number {
  if (e instanceof CommanderError) {
    if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
      return 0;
    if (e.code === 'commander.excessArguments') {
      // `faun serve keys creat`: an unknown subcommand arrives as an extra argument.
      const names = subcommandNames(argv);
      const bad = argv.filter((a) => !a.startsWith('-')).find((a) => !names.all.has(a));
      if (bad && names.children.length)
        process.stderr.write(
          `faun: '${bad}' is not a subcommand of '${names.parent}'.${didYouMean(bad, names.children)}\n`,
        );
    }
    return 2;
  }
  if (e instanceof FaunError) {
    process.stderr.write(`faun: ${e.message}\n${e.hint ? `  hint: ${e.hint}\n` : ''}`);
    return e.exitCode;
  }
  // a bad line of an input file: the message names file:line:field
  if (e instanceof JsonlError) {
    process.stderr.write(`faun: ${e.message}\n`);
    return 1;
  }
  // a file that cannot be read or written (missing, a folder, no permission): name it, no stack trace
  const io = e as NodeJS.ErrnoException;
  if (io && typeof io.code === 'string' && IO_PROBLEMS[io.code]) {
    const path = io.path ? `${io.path}: ` : '';
    process.stderr.write(
      `faun: ${path}${IO_PROBLEMS[io.code]}\n  hint: check the paths given on the command line (relative paths are resolved from ${process.cwd()})\n`,
    );
    return 1;
  }
  process.stderr.write(`faun: unexpected error: ${(e as Error)?.stack ?? String(e)}\n`);
  return 1;
}

/** Default run directory for a command: `<log-dir>/<run-id>`. */
export function runDir(ctx: CommandContext, runId: string): string {
  return join(ctx.logDir, runId);
}

export { UsageError };
