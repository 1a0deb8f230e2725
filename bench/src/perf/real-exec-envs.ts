/**
 * What `bench real-exec` needs beyond a repository's own mirror before it builds anything (I/O at the
 * edge, pure checks): the mirrors of the source trees its environments compile (a spec's `sources`), and,
 * for a repository whose environment follows what the base's build file asks for, that each pointer's PR
 * range names the version its base asks for.
 */
import {
  JACKSON_XML_REPO,
  jacksonXmlDeps,
  PR_VERSIONS,
  type PrVersion,
  REPO_SPECS,
  versionForPr,
  xmlVersionName,
} from '@faun/harness';
import { InputError, UsageError } from '@faun/kit';

export interface EnvPointer {
  repo: string;
  pr: number;
  fix_commit: string;
}

/** The repositories whose trees the environments of these pointers compile (their specs' `sources`). */
export function sourceRepos(pointers: readonly EnvPointer[], table: PrVersion[] = PR_VERSIONS): string[] {
  const out = new Set<string>();
  for (const p of pointers) {
    const v = versionForPr(p.repo, p.pr, table);
    const spec = REPO_SPECS.find(
      (s) => s.name === p.repo && (s.versions === null || (v !== null && s.versions.includes(v))),
    );
    for (const s of spec?.sources ?? []) out.add(s.repo);
  }
  return [...out].sort();
}

/** `--repo-dir` arguments for the source trees, from their mirrors; a missing mirror is a usage error. */
export function sourceRepoDirs(
  repos: readonly string[],
  mirrorOf: (repo: string) => string | null,
): string[] {
  const missing = repos.filter((r) => !mirrorOf(r));
  if (missing.length)
    throw new UsageError(
      `no mirror of ${missing.join(', ')} under --mirrors: the environments of these pointers compile them`,
      { hint: 'fetch each as owner+name under the --mirrors folder, then run the same command again' },
    );
  return repos.flatMap((r) => ['--repo-dir', `${r}=${mirrorOf(r)}`]);
}

/**
 * The environment version a base's build file asks for, for repositories whose environment follows it
 * (`null`: the repository's versions are PR ranges only), or why none.
 */
export function versionFromBase(repo: string, file: (path: string) => string | null): string | null {
  if (repo !== JACKSON_XML_REPO) return null;
  const pom = file('pom.xml');
  if (pom === null) return 'error: the base has no pom.xml';
  const d = jacksonXmlDeps(pom);
  return 'error' in d ? `error: ${d.error}` : xmlVersionName(d);
}

/**
 * Checks that each pointer's PR range names the version its base asks for (`baseFile(pointer, path)`:
 * a file of the fix commit's parent); a mismatch is an input error naming the pointer.
 */
export function checkBaseVersions(
  pointers: readonly EnvPointer[],
  baseFile: (p: EnvPointer, path: string) => string | null,
  where: string,
  table: PrVersion[] = PR_VERSIONS,
): void {
  for (const p of pointers) {
    const asked = versionFromBase(p.repo, (path) => baseFile(p, path));
    if (asked === null) continue;
    const ranged = versionForPr(p.repo, p.pr, table);
    if (asked !== ranged)
      throw new InputError(
        `${where}: ${p.repo} #${p.pr}: its base (${p.fix_commit.slice(0, 12)}^) asks for environment ` +
          `${asked.replace(/^error: /, '')}, the PR-range table gives ${ranged ?? 'none'}`,
        { hint: 'add or move the range in packages/harness/src/envs/spec-versions.ts (PR_VERSIONS)' },
      );
  }
}
