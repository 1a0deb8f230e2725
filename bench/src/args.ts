/**
 * Benchmark flags, parsed with commander (as the `faun` CLI is): every flag takes a value, a mistyped
 * or unknown flag is a usage error (with a suggestion), and numbers must be numbers. Each benchmark
 * declares its flags with their defaults; `bun run bench` checks the flags of the selected benchmarks
 * up front and hands each benchmark only its own.
 */
import { UsageError } from '@faun/kit';
import { Command, CommanderError, InvalidArgumentError } from 'commander';

/**
 * Flag name (kebab-case, without dashes) → default value; a number default makes a numeric flag, `false` a
 * switch (given without a value).
 */
export type FlagDefaults = Record<string, number | string | boolean | undefined>;

type Parsed<F extends FlagDefaults> = {
  [K in keyof F]: F[K] extends number ? number : F[K] extends boolean ? boolean : string | undefined;
};

/** The switches among `flags` (flags that take no value). */
export const switchesOf = (flags: FlagDefaults): string[] =>
  Object.keys(flags).filter((k) => typeof flags[k] === 'boolean');

const camel = (s: string) => s.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/** Parses `args` against `flags`; throws a UsageError naming the bad flag or value. */
export function parseFlags<const F extends FlagDefaults>(
  bench: string,
  args: readonly string[],
  flags: F,
): Parsed<F> {
  const cmd = new Command(bench)
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
    .allowExcessArguments(false);
  for (const [name, def] of Object.entries(flags)) {
    if (typeof def === 'number')
      cmd.option(`--${name} <n>`, `(default ${def})`, (v: string) => {
        const n = Number(v);
        if (v.trim() === '' || !Number.isFinite(n) || n < 0)
          throw new InvalidArgumentError(`expected a number ≥ 0, got '${v}'`);
        return n;
      });
    else if (typeof def === 'boolean') cmd.option(`--${name}`);
    else cmd.option(`--${name} <value>`);
  }
  try {
    cmd.parse([...args], { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError)
      throw new UsageError(`bench ${bench}: ${e.message.replace(/^error: /, '')}`, {
        hint: `flags of ${bench}: ${
          Object.keys(flags)
            .map((f) => `--${f}`)
            .join(' ') || '(none)'
        }`,
      });
    throw e;
  }
  const got = cmd.opts();
  const out: Record<string, unknown> = {};
  for (const [name, def] of Object.entries(flags)) out[name] = got[camel(name)] ?? def;
  return out as Parsed<F>;
}

/** The tokens of `args` that belong to `names` (`--x v` and `--x=v` forms). */
export function pickFlags(
  args: readonly string[],
  names: readonly string[],
  switches: readonly string[] = [],
): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const name = a.startsWith('--') ? a.slice(2).split('=')[0]! : null;
    if (name === null || !names.includes(name)) continue;
    out.push(a);
    if (!a.includes('=') && !switches.includes(name) && i + 1 < args.length) out.push(args[++i]!);
  }
  return out;
}
