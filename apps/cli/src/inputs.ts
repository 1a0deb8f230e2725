/**
 * Input files named on the command line (options declared with `input: true`): each must be a readable
 * file before the command starts — a missing one is a usage error (exit 2) naming the option — and `-`
 * reads standard input, saved to a temporary file that the command reads like any other and that is
 * removed when it ends. One option per command may be `-`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OptionSpec, optionKey, requireReadableFile, UsageError } from '@faun/kit';

/** Where standard input comes from (tests pass their own stream). */
export type StdinSource = () => ReadableStream<Uint8Array>;

/**
 * Checks the input options of `values` and replaces `-` by the path of a file holding standard input;
 * returns the clean-up to call when the command has finished.
 */
export async function prepareInputs(
  options: OptionSpec[],
  values: Record<string, unknown>,
  stdin: StdinSource = () => Bun.stdin.stream(),
): Promise<() => void> {
  const inputs = options.filter((o) => o.input && typeof values[optionKey(o.name)] === 'string');
  const dashed = inputs.filter((o) => values[optionKey(o.name)] === '-');
  if (dashed.length > 1)
    throw new UsageError(
      `${dashed.map((o) => `--${o.name} -`).join(' and ')}: only one option can read standard input`,
      { hint: 'give the other ones as files' },
    );
  let dir: string | null = null;
  for (const o of inputs) {
    const key = optionKey(o.name);
    if (values[key] !== '-') {
      await requireReadableFile(String(values[key]), o.name);
      continue;
    }
    dir = mkdtempSync(join(tmpdir(), 'faun-stdin-'));
    const file = join(dir, 'stdin');
    try {
      const out = Bun.file(file).writer();
      for await (const chunk of stdin()) out.write(chunk);
      await out.end();
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw new UsageError(`--${o.name} -: cannot read standard input (${(e as Error).message})`);
    }
    values[key] = file;
  }
  return () => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  };
}
