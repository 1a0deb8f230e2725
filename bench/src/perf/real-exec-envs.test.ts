import { expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PR_VERSIONS, REPO_SPECS } from '@faun/harness';
import { readPointers } from './real-exec.ts';
import { checkBaseVersions, sourceRepoDirs, sourceRepos, versionFromBase } from './real-exec-envs.ts';

const XML = 'FasterXML/jackson-dataformat-xml';
/** A jackson-dataformat-xml POM with only the parts read. */
const pom = (parent: string, wstx: string, stax2: string) =>
  [
    `<project><parent><artifactId>jackson-base</artifactId><version>${parent}</version></parent>`,
    `<dependency><artifactId>stax2-api</artifactId><version>${stax2}</version></dependency>`,
    `<dependency><artifactId>woodstox-core</artifactId><version>${wstx}</version></dependency>`,
    '<dependency><artifactId>jakarta.xml.bind-api</artifactId><version>3.0.1</version></dependency>',
    '<dependency><artifactId>sjsxp</artifactId><version>1.0.2</version></dependency></project>',
  ].join('\n');
const ptr = (pr: number) => ({ repo: XML, pr, fix_commit: 'c'.repeat(40) });

test("a base's POM names its environment version; other repositories follow PR ranges only", () => {
  expect(versionFromBase(XML, () => pom('2.17.0-SNAPSHOT', '6.6.0', '4.2.2'))).toBe(
    '2.17-woodstox-6.6.0-stax2-4.2.2',
  );
  expect(versionFromBase(XML, () => null)).toBe('error: the base has no pom.xml');
  expect(versionFromBase('FasterXML/jackson-core', () => pom('2.17.0', '6.6.0', '4.2.2'))).toBeNull();
});

test('a pointer whose PR range names another version than its base asks for is refused, naming it', () => {
  const at = (p: string) => () => p;
  // #638's range: 2.17 with woodstox 6.6.0
  expect(() =>
    checkBaseVersions([ptr(638)], at(pom('2.17.0-SNAPSHOT', '6.6.0', '4.2.2')), 'p.jsonl'),
  ).not.toThrow();
  expect(() =>
    checkBaseVersions([ptr(638)], at(pom('2.17.0-SNAPSHOT', '6.6.1', '4.2.2')), 'p.jsonl'),
  ).toThrow(
    'p.jsonl: FasterXML/jackson-dataformat-xml #638: its base (cccccccccccc^) asks for environment ' +
      '2.17-woodstox-6.6.1-stax2-4.2.2, the PR-range table gives 2.17-woodstox-6.6.0-stax2-4.2.2',
  );
  expect(() => checkBaseVersions([ptr(9999)], at(pom('2.17.0', '6.6.0', '4.2.2')), 'p.jsonl')).toThrow(
    'the PR-range table gives none',
  );
});

test('every PR range of jackson-dataformat-xml names a registered spec, and each committed pointer has one', () => {
  const registered = new Set(REPO_SPECS.filter((s) => s.name === XML).flatMap((s) => s.versions ?? []));
  const ranges = PR_VERSIONS.filter((r) => r.repo === XML);
  expect(ranges.length).toBeGreaterThanOrEqual(8);
  for (const r of ranges) expect(registered.has(r.version)).toBe(true);
  const file = resolve(import.meta.dir, '../../data/real-exec-pointers.jsonl');
  const xml = readPointers(readFileSync(file, 'utf8'), file).filter((p) => p.repo === XML);
  expect(xml.length).toBe(18);
  for (const p of xml) expect(ranges.some((r) => p.pr >= r.from && p.pr <= r.to)).toBe(true);
});

test("the source trees of the pointers' environments need mirrors; a missing one is named", () => {
  const repos = sourceRepos([ptr(562), ptr(652)]);
  expect(repos).toEqual([
    'FasterXML/jackson-annotations',
    'FasterXML/jackson-core',
    'FasterXML/jackson-databind',
    'FasterXML/jackson-modules-base',
    'FasterXML/stax2-api',
    'FasterXML/woodstox',
    'eclipse-ee4j/jaf',
    'eclipse-ee4j/jaxb-api',
    'wrandelshofer/FastDoubleParser',
  ]);
  expect(sourceRepos([{ repo: 'FasterXML/jackson-core', pr: 700, fix_commit: 'c' }])).toEqual([]);
  expect(sourceRepoDirs(['a/b'], (r) => `/m/${r}`)).toEqual(['--repo-dir', 'a/b=/m/a/b']);
  expect(() => sourceRepoDirs(['a/b', 'c/d'], (r) => (r === 'a/b' ? '/m' : null))).toThrow(
    'no mirror of c/d under --mirrors',
  );
});
