/**
 * Input-file checks shared by the commands: a missing or unreadable file is an {@link InputError} naming
 * the option and the path, not a stack trace.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { InputError } from '@faun/kit';

/** Throws an InputError unless `path` (given with `--<option>`) is a readable regular file. */
export async function requireReadableFile(path: string, option: string): Promise<void> {
  const where = `--${option} ${path}`;
  try {
    const st = await stat(path);
    if (st.isDirectory())
      throw new InputError(`${where}: is a directory`, { hint: `pass a JSONL file to --${option}` });
    await access(path, constants.R_OK);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    const problem =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EACCES' || code === 'EPERM'
          ? 'not readable (permission denied)'
          : `cannot be read (${(e as Error).message})`;
    throw new InputError(`${where}: ${problem}`, {
      hint: `check the path given to --${option} (relative paths are resolved from ${process.cwd()})`,
      cause: e,
    });
  }
}
