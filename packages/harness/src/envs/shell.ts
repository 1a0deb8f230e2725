/**
 * Shell quoting (pure): the one place a value taken from input (a file name of a row's test patch, a test
 * id) becomes a word of a shell line. POSIX single quotes: nothing inside is special; a `'` is written `'\''`.
 */

/** Single-quotes a string for a POSIX shell (always). */
export function sh(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Characters that are never special to a POSIX shell in a word (as Python's `shlex.quote` keeps bare). */
const BARE = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One shell word for `s`: bare when it has only characters no shell treats specially (an ordinary file name
 * reads as it did, so the command texts that key cached images stay the same), else single-quoted. A control
 * character (newline, NUL…) is refused: quoted or not, a newline ends a Dockerfile instruction.
 */
export function shellWord(s: string): string {
  if (/[\u0000-\u001f\u007f]/.test(s))
    throw new Error(`${JSON.stringify(s)} holds a control character and cannot be a shell word`);
  return BARE.test(s) ? s : sh(s);
}
