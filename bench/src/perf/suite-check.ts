/**
 * Whether a stand-in POM changed which tests run (pure): the test classes that ran in the run stage (the
 * base, no patch) against the classes the project's own Surefire configuration selects among the base
 * tree's test sources — its `maven-surefire-plugin` includes and excludes, or Surefire's defaults. On
 * Multi-SWE-bench's published jackson-dataformat-xml rows this selection is exactly the published
 * `run_result` (harness README), so an instance whose run stage ran exactly it ran upstream's suite.
 * Pure but for {@link selectionAt}, which reads a base from a mirror.
 */
import { Glob } from 'bun';
import { gitFileAt, gitFilesUnder } from '../git-file.ts';

export interface SurefirePatterns {
  includes: string[];
  excludes: string[];
}

/** Surefire's defaults (2.22): what runs when the POM names no includes. */
export const SUREFIRE_DEFAULTS: SurefirePatterns = {
  includes: ['**/Test*.java', '**/*Test.java', '**/*Tests.java', '**/*TestCase.java'],
  excludes: ['**/*$*'],
};

const tags = (xml: string, tag: string): string[] =>
  [...xml.matchAll(new RegExp(`<${tag}>\\s*([^<]*?)\\s*</${tag}>`, 'g'))].map((m) => m[1]!);

/** The includes and excludes of a `pom.xml`'s maven-surefire-plugin configuration (the text is only matched). */
export function surefirePatterns(pomXml: string): SurefirePatterns {
  const plugin = [...pomXml.matchAll(/<plugin>([\s\S]*?)<\/plugin>/g)]
    .map((m) => m[1]!)
    .find((p) => /<artifactId>\s*maven-surefire-plugin\s*<\/artifactId>/.test(p));
  const block = (name: string) => new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(plugin ?? '')?.[1];
  const inc = block('includes');
  const exc = block('excludes');
  return {
    includes: inc === undefined ? SUREFIRE_DEFAULTS.includes : tags(inc, 'include'),
    excludes: exc === undefined ? SUREFIRE_DEFAULTS.excludes : tags(exc, 'exclude'),
  };
}

/** The test classes (dotted names) the patterns select among paths under `root` (a test source folder). */
export function surefireSelection(
  paths: readonly string[],
  p: SurefirePatterns,
  root = 'src/test/java/',
): string[] {
  const inc = p.includes.map((g) => new Glob(g));
  const exc = p.excludes.map((g) => new Glob(g));
  return paths
    .filter((f) => f.startsWith(root) && f.endsWith('.java'))
    .map((f) => f.slice(root.length))
    .filter((rel) => inc.some((g) => g.match(rel)) && !exc.some((g) => g.match(rel)))
    .map((rel) => rel.slice(0, -'.java'.length).replaceAll('/', '.'))
    .sort();
}

export interface SuiteCheck {
  /** Classes the project's configuration selects in the base tree. */
  selected: number;
  /** Classes with a result in the run stage. */
  ran: number;
  /** Selected, no result. */
  missing: string[];
  /** A result, not selected. */
  extra: string[];
  equal: boolean;
}

export function suiteCheck(selected: readonly string[], ran: readonly string[]): SuiteCheck {
  const s = new Set(selected);
  const r = new Set(ran);
  const missing = [...s].filter((c) => !r.has(c)).sort();
  const extra = [...r].filter((c) => !s.has(c)).sort();
  return { selected: s.size, ran: r.size, missing, extra, equal: !missing.length && !extra.length };
}

/** The classes the base `commit`'s own POM selects among its `src/test/java`, read from the mirror `dir`. */
export function selectionAt(dir: string, commit: string): string[] {
  const pom = gitFileAt(dir, commit, 'pom.xml') ?? '';
  return surefireSelection(gitFilesUnder(dir, commit, 'src/test/java'), surefirePatterns(pom));
}
