import { expect, test } from 'bun:test';
import { REPO_SPECS } from '@faun/harness';
import { planFor } from './upstream.ts';

test('jackson-core: the whole suite, offline, every deviation from the upstream command recorded', () => {
  const p = planFor('fasterxml', 'jackson-core', 922, REPO_SPECS);
  if (!('plan' in p)) throw new Error(p.unsupported);
  expect(p.plan.upstream_command).toBe('mvn clean test -Dmaven.test.skip=false -DfailIfNoTests=false');
  expect(p.plan.spec.testCmd).toBe(p.plan.command);
  // the whole suite: no test selection, no per-test command
  expect(p.plan.command).not.toContain('-Dtest');
  expect(p.plan.command).toContain(' -o ');
  expect(p.plan.spec.perTestCmd).toBeUndefined();
  expect(p.plan.deviations.map((d) => d.what)).toEqual([
    'stand-in POM',
    'offline Maven',
    'clean',
    'toolchain',
    'generated sources',
    'tree',
  ]);
  expect(p.plan.deviations.find((d) => d.what === 'stand-in POM')?.may_change_tests_run).toBe(true);
});

test('a PR with its own upstream command keeps its selection; a flag faun drops is a deviation', () => {
  const p = planFor('fasterxml', 'jackson-core', 980, REPO_SPECS);
  if (!('plan' in p)) throw new Error(p.unsupported);
  expect(p.plan.upstream_command).toContain(
    '-Dtest=com.fasterxml.jackson.failing.PerfBigDecimalToInteger968',
  );
  expect(p.plan.command).toContain('-Dtest=com.fasterxml.jackson.failing.PerfBigDecimalToInteger968');
  expect(p.plan.deviations.at(-1)).toMatchObject({ what: 'changed flags', upstream: '-am' });
});

test('a repository without an offline environment is reported with the reason', () => {
  expect(planFor('google', 'guava', 1, REPO_SPECS)).toEqual({
    unsupported:
      "no offline environment for google/guava: Multi-SWE-bench's command for it is not mapped to a faun spec",
  });
  // repositories of the published files faun cannot build here say why
  const gson = planFor('google', 'gson', 1, REPO_SPECS);
  expect('unsupported' in gson && gson.unsupported).toMatch(
    /^no offline environment for google\/gson: .*Surefire 2\.22\.3/,
  );
  const mockito = planFor('mockito', 'mockito', 1, REPO_SPECS);
  expect('unsupported' in mockito && mockito.unsupported).toMatch(/Gradle wrapper/);
  const xml = planFor('FasterXML', 'jackson-dataformat-xml', 531, REPO_SPECS);
  expect('unsupported' in xml && xml.unsupported).toMatch(/woodstox-core/);
  expect(planFor('fasterxml', 'jackson-core', 1, [])).toEqual({
    unsupported: "no environment spec for fasterxml/jackson-core in faun's specs",
  });
});

test('a jackson-core base whose POM asks for fastdoubleparser: its own spec, the dependency built from source declared', () => {
  const pom =
    '<project><dependency><groupId>ch.randelshofer</groupId><artifactId>fastdoubleparser</artifactId>' +
    '<version>0.8.0</version></dependency></project>';
  const p = planFor('fasterxml', 'jackson-core', 964, REPO_SPECS, { pomXml: pom });
  if (!('plan' in p)) throw new Error(p.unsupported);
  expect(p.plan.spec.sources?.[0]?.repo).toBe('wrandelshofer/FastDoubleParser');
  expect(p.plan.spec.testCmd).toBe(p.plan.command);
  expect(p.plan.deviations.at(-1)).toMatchObject({ what: 'dependency built from source' });
  expect(p.plan.deviations.at(-1)?.upstream).toContain('fastdoubleparser:0.8.0');
});

test('a base with AssertJ: it is built from source, declared as not changing the suite; no source is left out', () => {
  const pom =
    '<project><dependency><artifactId>fastdoubleparser</artifactId><version>1.0.0</version></dependency>' +
    '<dependency><artifactId>assertj-core</artifactId></dependency></project>';
  const p = planFor('fasterxml', 'jackson-core', 1309, REPO_SPECS, { pomXml: pom });
  if (!('plan' in p)) throw new Error(p.unsupported);
  const built = p.plan.deviations.filter((d) => d.what === 'dependency built from source');
  expect(built.map((d) => d.upstream)).toEqual([
    expect.stringContaining('fastdoubleparser:1.0.0'),
    expect.stringContaining('org.assertj:assertj-core:3.24.2'),
  ]);
  expect(built.every((d) => !d.may_change_tests_run)).toBe(true);
  // the only deviation that can change which tests run is the stand-in POM, and it excludes no test source
  expect(p.plan.deviations.filter((d) => d.may_change_tests_run).map((d) => d.what)).toEqual([
    'stand-in POM',
  ]);
  expect(p.plan.spec.sources?.map((s) => s.repo)).toEqual([
    'wrandelshofer/FastDoubleParser',
    'assertj/assertj',
  ]);
  const pomStep = p.plan.spec.envSetup.find((s) => s.includes('base64'))!;
  const written = Buffer.from(/echo (\S+) \| base64 -d/.exec(pomStep)![1]!, 'base64').toString();
  expect(written).not.toContain('testExclude');
  expect(written).toContain('<artifactId>assertj-core</artifactId><version>3.24.2</version>');
});
