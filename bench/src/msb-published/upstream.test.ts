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
  // jackson-dataformat-xml's spec depends on its base's POM: without it, none
  expect(planFor('FasterXML', 'jackson-dataformat-xml', 531, REPO_SPECS)).toEqual({
    unsupported:
      "no environment for FasterXML/jackson-dataformat-xml without its base's pom.xml (its environment follows it)",
  });
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

const xmlPom = (parent: string, wstx: string, stax2: string) =>
  '<project><parent><groupId>com.fasterxml.jackson</groupId><artifactId>jackson-base</artifactId>' +
  `<version>${parent}</version></parent><dependencies>` +
  `<dependency><artifactId>stax2-api</artifactId><version>${stax2}</version></dependency>` +
  `<dependency><artifactId>woodstox-core</artifactId><version>${wstx}</version></dependency>` +
  '<dependency><artifactId>jakarta.xml.bind-api</artifactId><version>3.0.1</version></dependency>' +
  '<dependency><artifactId>sjsxp</artifactId><version>1.0.2</version></dependency></dependencies></project>';

test('jackson-dataformat-xml: its own spec per base, every substitute a deviation, SJSXP a stand-in that runs its test', () => {
  const p = planFor('fasterxml', 'jackson-dataformat-xml', 531, REPO_SPECS, {
    pomXml: xmlPom('2.14.0-SNAPSHOT', '6.2.7', '4.2.1'),
  });
  if (!('plan' in p)) throw new Error(p.unsupported);
  expect(p.plan.upstream_command).toBe('mvn clean test -Dmaven.test.skip=false -DfailIfNoTests=false');
  expect(p.plan.command).toContain('-f /opt/faun-java/jackson-dataformat-xml/pom.xml test');
  expect(p.plan.spec.testCmd).toBe(p.plan.command);
  const dev = p.plan.deviations;
  const wstx = dev.find((d) => d.upstream.includes('woodstox-core'))?.faun;
  expect(dev.find((d) => d.what === 'release tags for snapshots')).toMatchObject({
    upstream: expect.stringContaining('2.14.4-SNAPSHOT'),
    faun: expect.stringContaining('2.14.3 release tag'),
  });
  expect(dev.filter((d) => d.what === 'dependency built from source').map((d) => d.upstream)).toEqual([
    expect.stringContaining('stax2-api:4.2.1'),
    expect.stringContaining('woodstox-core:6.2.7'),
    expect.stringContaining('jakarta.xml.bind-api:3.0.1'),
    expect.stringContaining('jackson-module-jakarta-xmlbind-annotations:2.14.4-SNAPSHOT'),
  ]);
  expect(dev.filter((d) => d.may_change_tests_run).map((d) => d.what)).toEqual(['stand-in POM']);
  expect(dev.map((d) => d.what)).not.toContain('test source left out');
  expect(dev[0]?.faun).toContain('**/Test*.java');
  expect(dev.find((d) => d.what === 'JVM options')?.faun).toContain(
    '--add-opens java.base/java.util=ALL-UNNAMED',
  );
  expect(wstx).toContain('msv-core / xsdlib 2009.1');
  expect(dev.at(-1)).toMatchObject({
    what: 'dependency substituted',
    upstream: 'com.sun.xml.stream:sjsxp:1.0.2 from Maven Central (test scope)',
    faun: expect.stringMatching(
      /^a two-class stand-in .*JDK's built-in StAX implementation.*NonWoodstoxStaxImpl482Test\.java compiles and runs/,
    ),
    may_change_tests_run: false,
  });
  // the sources the environment is built from are named (the runner needs their mirrors)
  expect(p.plan.spec.sources?.map((s) => s.repo)).toContain('eclipse-ee4j/jaxb-api');

  const p15 = planFor('fasterxml', 'jackson-dataformat-xml', 590, REPO_SPECS, {
    pomXml: xmlPom('2.15.0-rc3-SNAPSHOT', '6.5.0', '4.2.1'),
  });
  if (!('plan' in p15)) throw new Error(p15.unsupported);
  expect(p15.plan.deviations.map((d) => d.upstream)).toContainEqual(
    expect.stringContaining('fastdoubleparser:1.0.0'),
  );
  // 2.17.3 shades fastdoubleparser 1.0.1: built from its tag, no Debian version; without the mirror: Debian's, declared
  const p17 = planFor('fasterxml', 'jackson-dataformat-xml', 644, REPO_SPECS, {
    pomXml: xmlPom('2.17.0-SNAPSHOT', '6.6.1', '4.2.2'),
  });
  if (!('plan' in p17)) throw new Error(p17.unsupported);
  expect(p17.plan.deviations.map((d) => d.what)).not.toContain("Debian's version");
  expect(p17.plan.deviations.find((d) => d.upstream.includes('fastdoubleparser'))).toMatchObject({
    what: 'dependency built from source',
    upstream: expect.stringContaining('fastdoubleparser:1.0.1'),
    faun: expect.stringContaining('from the v1.0.1 tag'),
    may_change_tests_run: false,
  });
  const noMirror = planFor('fasterxml', 'jackson-dataformat-xml', 590, REPO_SPECS, {
    pomXml: xmlPom('2.15.0-rc3-SNAPSHOT', '6.5.0', '4.2.1'),
    hasSource: (r) => r !== 'wrandelshofer/FastDoubleParser',
  });
  if (!('plan' in noMirror)) throw new Error(noMirror.unsupported);
  expect(noMirror.plan.spec.sources?.map((s) => s.repo)).not.toContain('wrandelshofer/FastDoubleParser');
  expect(noMirror.plan.deviations.find((d) => d.what === "Debian's version")?.faun).toMatch(
    /libfastdoubleparser-java 2\.0\.1-2 .*: no mirror of wrandelshofer\/FastDoubleParser here$/,
  );
});

test("jackson-core's stand-in POM deviation is unchanged by the per-repository text", () => {
  const p = planFor('fasterxml', 'jackson-core', 922, REPO_SPECS);
  if (!('plan' in p)) throw new Error(p.unsupported);
  expect(p.plan.deviations[0]?.faun).toBe(
    "/opt/faun-java/jackson-core/pom.xml: compiler 3.10.1, resources 3.3.0, surefire 2.22.3, JUnit 4.13.2 + Jupiter/vintage 5.9.2, Surefire excludes of the project's POM (**/failing/**)",
  );
});
