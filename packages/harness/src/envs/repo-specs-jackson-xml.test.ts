import { expect, test } from 'bun:test';
import { envDockerfile } from './docker-images.ts';
import {
  fastDoubleParserDebianStep,
  JACKSON_XML_POM,
  JAVA8_OPENS,
  type JacksonXmlDeps,
  jacksonXmlBuild,
  jacksonXmlDeps,
  jacksonXmlSpec,
  jarBuildStep,
  MSV_JARS,
  repoJar,
} from './repo-specs-jackson-xml.ts';
import { fastDoubleParserStep, JAVA_SPECS, standinPom } from './repo-specs-java.ts';
import { sjsxpStandinSources } from './sjsxp-standin.ts';
import { writeFileStep } from './spec-steps.ts';

/** A jackson-dataformat-xml POM as the bases write it (only the parts read). */
const pom = (parent: string, wstx: string, stax2: string, sjsxp = true) =>
  [
    '<project><modelVersion>4.0.0</modelVersion>',
    `<parent><groupId>com.fasterxml.jackson</groupId><artifactId>jackson-base</artifactId><version>${parent}</version></parent>`,
    '<artifactId>jackson-dataformat-xml</artifactId><version>9.9.9-SNAPSHOT</version><dependencies>',
    `<dependency><groupId>org.codehaus.woodstox</groupId><artifactId>stax2-api</artifactId>\n  <version>${stax2}</version></dependency>`,
    `<dependency><groupId>com.fasterxml.woodstox</groupId><artifactId>woodstox-core</artifactId><version>${wstx}</version></dependency>`,
    '<dependency><groupId>jakarta.xml.bind</groupId><artifactId>jakarta.xml.bind-api</artifactId><version>3.0.1</version></dependency>',
    sjsxp ? '<dependency><artifactId>sjsxp</artifactId><version>1.0.2</version></dependency>' : '',
    '</dependencies></project>',
  ].join('\n');

const deps = (p: string): JacksonXmlDeps => {
  const d = jacksonXmlDeps(p);
  if ('error' in d) throw new Error(d.error);
  return d;
};

test('the versions a base asks for: the parent line (not the project version), woodstox, stax2, sjsxp', () => {
  expect(deps(pom('2.14.0-SNAPSHOT', '6.2.7', '4.2.1'))).toEqual({
    line: '2.14',
    parentVersion: '2.14.0-SNAPSHOT',
    woodstox: '6.2.7',
    stax2: '4.2.1',
    jakartaXmlBind: '3.0.1',
    sjsxp: true,
  });
  expect(deps(pom('2.15.0-rc3-SNAPSHOT', '6.5.0', '4.2.1', false))).toMatchObject({
    line: '2.15',
    sjsxp: false,
  });
  expect(
    jacksonXmlDeps(pom('2.17.0-SNAPSHOT', '6.6.1', '').replace(/<artifactId>stax2-api[^\n]*/, '')),
  ).toEqual({
    error: 'its pom.xml names no version of stax2-api',
  });
  // the Jakarta XML Bind API's version is read, never assumed
  expect(
    jacksonXmlDeps(
      pom('2.14.0-SNAPSHOT', '6.2.7', '4.2.1').replace(/<dependency><groupId>jakarta[^\n]*/, ''),
    ),
  ).toEqual({ error: 'its pom.xml names no version of jakarta.xml.bind-api' });
});

test('per line: the release tags built, fastdoubleparser only from 2.15, the dependency order', () => {
  const b14 = jacksonXmlBuild(deps(pom('2.14.0-SNAPSHOT', '6.3.1', '4.2.1')));
  if ('error' in b14) throw new Error(b14.error);
  expect(b14.fastdoubleparser).toBeNull();
  expect(b14.sources.map((s) => s.repo)).not.toContain('wrandelshofer/FastDoubleParser');
  expect(b14.sources.find((s) => s.repo === 'FasterXML/woodstox')?.commit).toBe(
    '8f35b05cfaef7e54b135493d81d989147d2ae75f',
  );
  const order = b14.jars.map((j) => j.gav.split(':')[1]);
  // each artifact after what it is compiled against
  for (const j of b14.jars)
    for (const c of j.cp)
      expect(order.indexOf(c.split(':')[1])).toBeLessThan(order.indexOf(j.gav.split(':')[1]));
  expect(b14.deps).toContain('com.fasterxml.jackson.core:jackson-databind:2.14.3');
  expect(b14.testDeps).toContain(
    'com.fasterxml.jackson.module:jackson-module-jakarta-xmlbind-annotations:2.14.3',
  );

  const b15 = jacksonXmlBuild(deps(pom('2.15.0-rc3-SNAPSHOT', '6.5.0', '4.2.1')));
  if ('error' in b15) throw new Error(b15.error);
  expect(b15.fastdoubleparser).toEqual({ version: '1.0.0', from: 'source', asked: '1.0.0' });
  expect(b15.sources[0]?.repo).toBe('wrandelshofer/FastDoubleParser');
  expect(b15.jars.find((j) => j.gav.includes('jackson-core'))?.cp).toEqual([
    'ch.randelshofer:fastdoubleparser:1.0.0',
  ]);
  expect(b15.deps).toContain('ch.randelshofer:fastdoubleparser:1.0.0');
});

test("fastdoubleparser: the version jackson-core asks for from its tag; without FastDoubleParser's tree, Debian trixie's jar", () => {
  const b15 = jacksonXmlBuild(deps(pom('2.15.0-rc3-SNAPSHOT', '6.5.0', '4.2.1')), false);
  if ('error' in b15) throw new Error(b15.error);
  expect(b15.fastdoubleparser).toEqual({ version: '2.0.1', from: 'debian', asked: '1.0.0' });
  expect(b15.sources.map((s) => s.repo)).not.toContain('wrandelshofer/FastDoubleParser');
  expect(b15.jars.find((j) => j.gav.includes('jackson-core'))?.cp).toEqual([
    'ch.randelshofer:fastdoubleparser:2.0.1',
  ]);
  // 2.17.3 shades 1.0.1: built from its tag when the tree is here
  const b17 = jacksonXmlBuild(deps(pom('2.17.0-SNAPSHOT', '6.6.1', '4.2.2')));
  if ('error' in b17) throw new Error(b17.error);
  expect(b17.fastdoubleparser).toEqual({ version: '1.0.1', from: 'source', asked: '1.0.1' });
  expect(b17.sources[0]).toEqual({
    repo: 'wrandelshofer/FastDoubleParser',
    commit: '388d54e9f50ab6858cd797a87213ae20c04ed9b7',
    dest: '/opt/faun-src/fastdoubleparser',
  });
  expect(b17.jars.find((j) => j.gav.includes('jackson-core'))?.cp).toEqual([
    'ch.randelshofer:fastdoubleparser:1.0.1',
  ]);
  const built = jacksonXmlSpec(deps(pom('2.17.0-SNAPSHOT', '6.6.1', '4.2.2')));
  if ('error' in built) throw new Error(built.error);
  expect(built.spec.envSetup[0]).toBe(fastDoubleParserStep('1.0.1'));
  expect(built.spec.envSetup.join('\n')).not.toContain('trixie');
  const r = jacksonXmlSpec(deps(pom('2.17.0-SNAPSHOT', '6.6.1', '4.2.2')), false);
  if ('error' in r) throw new Error(r.error);
  expect(r.build.fastdoubleparser).toEqual({ version: '2.0.1', from: 'debian', asked: '1.0.1' });
  const step = r.spec.envSetup[0]!;
  expect(step).toBe(fastDoubleParserDebianStep());
  expect(step).toContain("sed -n 's/^\\(deb \\S*\\) bookworm main$/\\1 trixie main/p' /etc/apt/sources.list");
  expect(step).toContain('apt-get download libfastdoubleparser-java=2.0.1-2');
  expect(step).toContain(
    'cp x/usr/share/java/fastdoubleparser-2.0.1.jar /usr/share/maven-repo/ch/randelshofer/fastdoubleparser/2.0.1/fastdoubleparser-2.0.1.jar',
  );
});

test('versions with no known source commit are reasons, not specs', () => {
  expect(jacksonXmlBuild(deps(pom('2.14.0-SNAPSHOT', '6.2.1', '4.2.1')))).toEqual({
    error: 'no woodstox-core 6.2.1 source commit known',
  });
  expect(jacksonXmlBuild(deps(pom('2.18.0-SNAPSHOT', '6.5.1', '4.2.1')))).toMatchObject({
    error: expect.stringContaining('no release tags known for the 2.18 line'),
  });
});

test('a jar build: Java 8 classes against its classpath, sources left out, installed with a POM', () => {
  const s = jarBuildStep({
    gav: 'com.fasterxml.woodstox:woodstox-core:6.2.7',
    dir: '/opt/faun-src/woodstox',
    cp: ['org.codehaus.woodstox:stax2-api:4.2.1'],
    leaveOut: "! -path '*/msv/*'",
    dropResources: ['META-INF/services/x'],
  });
  expect(repoJar('org.codehaus.woodstox:stax2-api:4.2.1')).toBe(
    '/usr/share/maven-repo/org/codehaus/woodstox/stax2-api/4.2.1/stax2-api-4.2.1.jar',
  );
  expect(s).toContain(`-cp ${repoJar('org.codehaus.woodstox:stax2-api:4.2.1')} -d /tmp/faun-jar`);
  expect(s).toContain("! -name module-info.java ! -path '*/msv/*')");
  expect(s).toContain('rm -f /tmp/faun-jar/META-INF/services/x');
  expect(s).toContain(
    'jar cf /usr/share/maven-repo/com/fasterxml/woodstox/woodstox-core/6.2.7/woodstox-core-6.2.7.jar',
  );
  expect(s).toContain(
    '> /usr/share/maven-repo/com/fasterxml/woodstox/woodstox-core/6.2.7/woodstox-core-6.2.7.pom',
  );
});

test('a jar build with no tree of its own: its sources written first, for its Java release', () => {
  const s = jarBuildStep({
    gav: 'com.sun.xml.stream:sjsxp:1.0.2',
    dir: '/opt/faun-src/sjsxp',
    cp: [],
    release: '11',
    files: { 'a/B.java': 'package a; class B {}' },
  });
  const write = writeFileStep('/opt/faun-src/sjsxp/src/main/java/a/B.java', 'package a; class B {}');
  expect(s.startsWith(`${write} && cd /opt/faun-src/sjsxp && `)).toBe(true);
  expect(s).toContain('javac -nowarn --release 11 -encoding UTF-8 -d /tmp/faun-jar ');
  expect(s).toContain('jar cf /usr/share/maven-repo/com/sun/xml/stream/sjsxp/1.0.2/sjsxp-1.0.2.jar');
  // without a release: Java 8, as before
  expect(jarBuildStep({ gav: 'a:b:1', dir: '/x', cp: [] })).toContain('javac -nowarn --release 8 ');
});

test("woodstox-core: Debian's MSV on its classpath and carried in its jar, as its shaded jar does", () => {
  const b = jacksonXmlBuild(deps(pom('2.14.0-SNAPSHOT', '6.2.7', '4.2.1')));
  if ('error' in b) throw new Error(b.error);
  const w = b.jars.find((j) => j.gav.includes('woodstox-core'))!;
  expect(w.bundle).toEqual(MSV_JARS);
  const s = jarBuildStep(w);
  expect(s).toContain(
    `-cp ${repoJar('org.codehaus.woodstox:stax2-api:4.2.1')}:/usr/share/java/msv-core-2009.1.jar:`,
  );
  // the bundled classes are unpacked before the module's resources are copied over them
  const unpack = s.indexOf('jar xf $j; done && rm -rf META-INF');
  expect(unpack).toBeGreaterThan(0);
  expect(unpack).toBeLessThan(s.indexOf('cp -r src/main/resources/.'));
  expect(s).toContain("! -path '*/com/ctc/wstx/osgi/*'");
  expect(s).not.toContain('msv/*');
  // bnd's annotations and their imports (6.3+: a static import of Resolution.OPTIONAL) go
  expect(s).toContain("sed -i -E -e '/^import (static )?aQute\\.bnd/d' -e 's/^@ServiceProvider\\(.*\\)$//'");
});

test("the spec: the project's Surefire includes and excludes, SJSXP's stand-in, the rewritten version", () => {
  const r = jacksonXmlSpec(deps(pom('2.14.0-SNAPSHOT', '6.2.7', '4.2.1')));
  if ('error' in r) throw new Error(r.error);
  const step = r.spec.envSetup.at(-1)!;
  const written = Buffer.from(/echo (\S+) \| base64 -d > (\S+)$/.exec(step)![1]!, 'base64').toString();
  expect(step.endsWith(JACKSON_XML_POM)).toBe(true);
  expect(written).toContain(
    '<includes><include>**/Test*.java</include><include>**/*Test.java</include></includes>',
  );
  expect(written).toContain('<exclude>com/fasterxml/jackson/dataformat/xml/failing/*.java</exclude>');
  // the SJSXP test compiles and runs, against the stand-in installed as SJSXP 1.0.2
  expect(written).not.toContain('testExclude');
  expect(written).not.toContain('NonWoodstoxStaxImpl482Test');
  expect(written).toContain(
    '<groupId>com.sun.xml.stream</groupId><artifactId>sjsxp</artifactId><version>1.0.2</version><scope>test</scope>',
  );
  const sjsxp = r.build.jars.find((j) => j.gav === 'com.sun.xml.stream:sjsxp:1.0.2')!;
  expect(sjsxp).toMatchObject({ release: '11', cp: [], files: sjsxpStandinSources() });
  expect(r.spec.envSetup).toContain(jarBuildStep(sjsxp));
  expect(written).toContain('<version>2.14.4-SNAPSHOT</version>');
  expect(written).toContain(`<argLine>${JAVA8_OPENS}</argLine>`);
  expect(r.spec.apt).toContain('libmsv-java');
  expect(r.spec.install[0]).toContain('s/@projectversion@/2.14.4-SNAPSHOT/');
  expect(envDockerfile(r.spec)).toContain('COPY faun-source-1 /opt/faun-src/woodstox');
  const none = jacksonXmlSpec(deps(pom('2.14.0-SNAPSHOT', '6.2.7', '4.2.1', false)));
  if ('error' in none) throw new Error(none.error);
  expect(none.spec.envSetup.at(-1)).not.toBe(step);
  expect(none.build.jars.map((j) => j.gav)).not.toContain('com.sun.xml.stream:sjsxp:1.0.2');
  expect(none.build.testDeps).not.toContain('com.sun.xml.stream:sjsxp:1.0.2');
});

test("stand-in POM: no includes unless given (jackson-core's POM unchanged)", () => {
  const base = { groupId: 'g', artifactId: 'a', version: '1', release: '8', excludes: ['x'] };
  expect(standinPom(base)).not.toContain('<includes>');
  expect(standinPom(base)).not.toContain('<argLine>');
  expect(standinPom({ ...base, includes: ['**/*Test.java'] })).toContain(
    '<trimStackTrace>true</trimStackTrace><includes><include>**/*Test.java</include></includes><excludes>',
  );
  const core = JAVA_SPECS.find((s) => s.name === 'FasterXML/jackson-core')!;
  expect(envDockerfile(core)).not.toContain('includes');
});
