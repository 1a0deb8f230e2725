/** A row's `repo` names a folder under the clone cache and a clone URL, so it must be a GitHub `owner/name` (pure). */

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/** `s` as it may be shown in a message: at most 80 characters, control characters escaped. */
export const shown = (s: string) => JSON.stringify(s.slice(0, 80)).slice(1, -1);

/** Why `repo` is not a GitHub `owner/name`, or null. */
export function repoProblem(repo: string): string | null {
  const parts = repo.split('/');
  if (parts.length !== 2) return `'${shown(repo)}' is not owner/name`;
  const [owner, name] = parts as [string, string];
  if (!OWNER.test(owner)) return `owner '${shown(owner)}' is not a GitHub user or organisation name`;
  if (!NAME.test(name) || name === '.' || name === '..')
    return `name '${shown(name)}' is not a GitHub repository name`;
  return null;
}
