/**
 * Input-file checks shared by the commands: a missing or unreadable file named on the command line is a
 * {@link UsageError} (exit 2) naming the option and the path, not a stack trace.
 */
import { constants, existsSync, realpathSync, statSync } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { UsageError } from './errors.ts';

/**
 * Throws a UsageError (exit 2: the command line names something that is not there) unless `path`
 * (given with `--<option>`) is a readable regular file.
 */
export async function requireReadableFile(
  path: string,
  option: string,
  where = `--${option} ${path}`,
): Promise<void> {
  try {
    const st = await stat(path);
    if (st.isDirectory())
      throw new UsageError(`${where}: is a directory`, { hint: `pass a JSONL file to --${option}` });
    await access(path, constants.R_OK);
  } catch (e) {
    if (e instanceof UsageError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'not readable (permission denied)'
          : `cannot be read (${(e as Error).message})`;
    throw new UsageError(`${where}: ${problem}`, {
      hint: `check the path given to --${option} (relative paths are resolved from ${process.cwd()})`,
      cause: e,
    });
  }
}

/**
 * Refuses an output file (given with `--<option>`) that is a folder or one of the `inputs` (writing it
 * would destroy the input): a usage error, before anything is written.
 */
export function requireOutputFile(path: string, option: string, inputs: (string | undefined)[] = []): void {
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return resolve(p);
    }
  };
  for (const input of inputs)
    if (input !== undefined && real(input) === real(path))
      throw new UsageError(`--${option} ${path} is an input file (${input}); writing it would destroy it`, {
        hint: `pass another file to --${option}`,
      });
  if (existsSync(path) && statSync(path).isDirectory())
    throw new UsageError(`--${option} ${path}: is a directory`, {
      hint: `pass a file path to --${option}`,
    });
}
