/**
 * Environment specs of real Java repositories (Multi-SWE-bench's / SWE-bench-java's lists), offline:
 * Maven against Debian's repository (/usr/share/maven-repo, filled by libXXX-java packages). The
 * projects' own POMs inherit parents and plugins Debian does not ship, so the repo-env layer writes a
 * stand-in POM that builds the work tree's sources with the plugin versions Debian has (compiler 3.10.1,
 * resources 3.3.0, surefire 2.22.3, junit 4 / 5); the tests and Surefire's output are the project's own.
 */
import { writeFileStep } from './spec-steps.ts';
import type { EnvSpec } from './specs.ts';

export interface StandinPom {
  groupId: string;
  artifactId: string;
  version: string;
  /** Surefire excludes (the project POM's own, e.g. `**\/failing/**`). */
  excludes: string[];
  /** Surefire includes (the project POM's own; none: Surefire's defaults). */
  includes?: string[];
  /** Surefire's JVM arguments for the forked test JVM (none: its default). */
  argLine?: string;
  /** Java release the sources are compiled for. */
  release: string;
  /** Extra test-scoped dependencies present in Debian's repository (`group:artifact:version`). */
  testDeps?: string[];
  /** Compile-scoped dependencies from Debian's repository (`group:artifact:version`). */
  deps?: string[];
  /**
   * Test sources left out of compilation and runs (paths under src/test/java, Ant patterns): the few that
   * need a test library Debian does not ship.
   */
  testExcludes?: string[];
}

const dep = (g: string, a: string, v: string, scope = 'test') =>
  `<dependency><groupId>${g}</groupId><artifactId>${a}</artifactId><version>${v}</version><scope>${scope}</scope></dependency>`;

const plugin = (a: string, v: string, conf = '') =>
  `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${a}</artifactId><version>${v}</version>${conf}</plugin>`;

/** The stand-in POM (pure): sources, resources and target under /testbed, Debian's plugin versions. */
export function standinPom(p: StandinPom): string {
  const excludes = [...p.excludes, ...(p.testExcludes ?? [])].map((e) => `<exclude>${e}</exclude>`).join('');
  const includes = p.includes?.length
    ? `<includes>${p.includes.map((i) => `<include>${i}</include>`).join('')}</includes>`
    : '';
  const testExcludes = (p.testExcludes ?? []).map((e) => `<testExclude>${e}</testExclude>`).join('');
  const gav = (d: string, scope: string) => {
    const [g, a, v] = d.split(':');
    return dep(g!, a!, v!, scope);
  };
  const deps = [
    ...(p.deps ?? []).map((d) => gav(d, 'compile')),
    dep('junit', 'junit', '4.13.2'),
    ...(p.testDeps ?? []).map((d) => gav(d, 'test')),
  ].join('');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>',
    `<groupId>${p.groupId}</groupId><artifactId>${p.artifactId}</artifactId><version>${p.version}</version>`,
    '<properties><project.build.sourceEncoding>UTF-8</project.build.sourceEncoding></properties>',
    `<dependencies>${deps}</dependencies>`,
    '<build><directory>/testbed/target</directory>',
    '<sourceDirectory>/testbed/src/main/java</sourceDirectory>',
    '<testSourceDirectory>/testbed/src/test/java</testSourceDirectory>',
    '<resources><resource><directory>/testbed/src/main/resources</directory></resource></resources>',
    '<testResources><testResource><directory>/testbed/src/test/resources</directory></testResource></testResources>',
    '<plugins>',
    plugin(
      'maven-compiler-plugin',
      '3.10.1',
      `<configuration><release>${p.release}</release><excludes><exclude>**/module-info.java</exclude></excludes>` +
        `${testExcludes ? `<testExcludes>${testExcludes}</testExcludes>` : ''}</configuration>`,
    ),
    plugin('maven-resources-plugin', '3.3.0'),
    plugin(
      'maven-surefire-plugin',
      '2.22.3',
      `<configuration><trimStackTrace>true</trimStackTrace>${p.argLine ? `<argLine>${p.argLine}</argLine>` : ''}${includes}<excludes>${excludes}</excludes></configuration>`,
    ),
    '</plugins></build></project>',
    '',
  ].join('\n');
}

const MVN = 'mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo';
// junit5 (Jupiter, vintage, platform) comes with the java toolchain image.
const JAVA_APT = ['libmaven-resources-plugin-java', 'junit4', 'libhamcrest-java'];

const JACKSON_CORE_POM = '/opt/faun-java/jackson-core/pom.xml';
const JACKSON_DATABIND_POM = '/opt/faun-java/jackson-databind/pom.xml';

/** The replacer plugin's job in Jackson's builds: `PackageVersion.java` from its template, when there is one. */
export function packageVersionStep(pkg: string, version: string, group: string, artifact: string): string {
  return (
    `f=src/main/java/${pkg.replaceAll('.', '/')}/PackageVersion.java; [ ! -f $f.in ] || sed -e "s/@package@/${pkg}/" ` +
    `-e "s/@projectversion@/${version}/" -e "s/@projectgroupid@/${group}/" -e "s/@projectartifactid@/${artifact}/" $f.in > $f`
  );
}

/**
 * Env step: jackson-core `version` as released upstream, built from Debian's source package's upstream
 * tarball and put in Debian's Maven repository as `<version>-upstream`. Debian's binary jackson-core
 * 2.14.1 carries a backport of 2.15's stream-read constraints that changes its API
 * (`SegmentedStringWriter.getAndClear()` throws IOException), which jackson-databind 2.14 does not compile
 * against.
 */
export function jacksonCoreUpstreamStep(version: string): string {
  const dir = `/usr/share/maven-repo/com/fasterxml/jackson/core/jackson-core/${version}-upstream`;
  const pom =
    '<project><modelVersion>4.0.0</modelVersion><groupId>com.fasterxml.jackson.core</groupId>' +
    `<artifactId>jackson-core</artifactId><version>${version}-upstream</version></project>`;
  return [
    "sed -n 's/^deb /deb-src /p' /etc/apt/sources.list > /etc/apt/sources.list.d/faun-src.list",
    'apt-get update',
    'mkdir -p /tmp/faun-jc/classes && cd /tmp/faun-jc',
    'apt-get source --download-only jackson-core',
    `tar xf jackson-core_${version}.orig.tar.*`,
    'cd jackson-core-*/',
    packageVersionStep(
      'com.fasterxml.jackson.core.json',
      version,
      'com.fasterxml.jackson.core',
      'jackson-core',
    ),
    "javac -nowarn --release 8 -encoding UTF-8 -d /tmp/faun-jc/classes $(find src/main/java -name '*.java' ! -name module-info.java)",
    'cp -r src/main/resources/. /tmp/faun-jc/classes/',
    `mkdir -p ${dir}`,
    `jar cf ${dir}/jackson-core-${version}-upstream.jar -C /tmp/faun-jc/classes .`,
    `printf '%s\\n' '${pom}' > ${dir}/jackson-core-${version}-upstream.pom`,
    'cd / && rm -rf /tmp/faun-jc /etc/apt/sources.list.d/faun-src.list /var/lib/apt/lists/*',
  ].join(' && ');
}

/**
 * Shell: `T` = the classes of `{test_classes}` whose source exists in the work tree, each followed by a comma.
 * A `-Dtest` that names only classes a stage does not have (a test class the test patch adds, before it is
 * applied) made Surefire's JUnit Platform provider run every test class: four minutes per run stage for
 * jackson-databind.
 */
export const EXISTING_CLASSES =
  `T=$(for c in $(echo '{test_classes}' | tr , ' '); do ` +
  `[ -n "$(find src/test/java -name "$c.java")" ] && printf '%s,' "$c"; done)`;

/**
 * Multi-SWE-bench's Maven test run over a stand-in POM (`mvn test`, graded per class from Surefire's
 * summary lines), limited to the classes the test patch touches; and SWE-bench's Java path: one Maven run
 * per test, where a test that does not run fails the build (Surefire's failIfNoSpecifiedTests).
 * `existingOnly`: run only the touched classes the stage has (EXISTING_CLASSES), or compile when it has none.
 */
function mavenRun(
  pom: string,
  existingOnly = false,
): Pick<EnvSpec, 'testCmd' | 'perTestPrelude' | 'perTestCmd' | 'parser' | 'env'> {
  const test = `${MVN} -f ${pom} test -Dmaven.test.skip=false -DfailIfNoTests=false`;
  return {
    testCmd: existingOnly
      ? `rm -rf target; ${EXISTING_CLASSES}; if [ -n "$T" ]; then ${test} -Dtest=\${T%,} 2>&1; ` +
        `else ${MVN} -f ${pom} test-compile 2>&1; fi`
      : `rm -rf target; ${test} -Dtest={test_classes} 2>&1`,
    perTestPrelude: 'rm -rf target',
    perTestCmd: `${MVN} -f ${pom} test -Dmaven.test.skip=false -Dtest={test} 2>&1`,
    parser: 'msb-maven-class',
    env: { MAVEN_OPTS: '-Xmx1g' },
  };
}

const JACKSON_TEST_DEPS = [
  'org.junit.vintage:junit-vintage-engine:5.9.2',
  'org.junit.jupiter:junit-jupiter:5.9.2',
];

/** What a jackson-core tree's POM asks for beyond JUnit: fastdoubleparser (2.15+) and AssertJ (2.16+). */
export interface JacksonCoreDeps {
  /** fastdoubleparser's version, or null when the POM does not depend on it. */
  fastdoubleparser: string | null;
  assertj: boolean;
}
const NO_EXTRA_DEPS: JacksonCoreDeps = { fastdoubleparser: null, assertj: false };

/** The extra dependencies of a jackson-core `pom.xml` (pure; the text is data, only matched). */
export function jacksonCoreDeps(pomXml: string): JacksonCoreDeps {
  const fdp = /<artifactId>fastdoubleparser<\/artifactId>\s*<version>([\w.-]+)<\/version>/.exec(pomXml);
  return {
    fastdoubleparser: fdp?.[1] ?? null,
    assertj: /<artifactId>assertj-core<\/artifactId>/.test(pomXml),
  };
}

/** fastdoubleparser's release commits (github.com/wrandelshofer/FastDoubleParser tags v<version>). */
export const FASTDOUBLEPARSER_COMMITS: Record<string, string> = {
  '0.6.0': '1a0ae4bd99dd5ab1db4e867ee74ab725517ff346',
  '0.8.0': 'aeeab26365235cc2fbfb68fea2145a4b86a800fd',
  '0.9.0': 'fca8ab6ddfd2f6c2f0669fcba27b84cb0b0d0280',
  '1.0.0': '6080865ed6ba7a3dfa3264bdeffc7d997f1a9934',
  '1.0.1': '388d54e9f50ab6858cd797a87213ae20c04ed9b7',
};
const FDP_SRC = '/opt/faun-src/fastdoubleparser';

/**
 * Env step: fastdoubleparser `version` built from its source as its Java 8 jar is (the shared sources
 * without the ones its java8 module replaces or leaves out, plus that module's), into Debian's Maven
 * repository. Debian ships no fastdoubleparser.
 */
export function fastDoubleParserStep(version: string): string {
  const dir = `/usr/share/maven-repo/ch/randelshofer/fastdoubleparser/${version}`;
  const pom =
    '<project><modelVersion>4.0.0</modelVersion><groupId>ch.randelshofer</groupId>' +
    `<artifactId>fastdoubleparser</artifactId><version>${version}</version></project>`;
  const left = ['Decimal', 'FastDoubleSwar', 'FastDoubleVector', 'FastIntegerMath', 'BigSignificand'];
  return [
    `mkdir -p /tmp/faun-fdp/src /tmp/faun-fdp/classes && cd ${FDP_SRC}`,
    "cp $(find fastdoubleparser-dev/src/main/java -path '*/ch/randelshofer/fastdoubleparser/*.java') /tmp/faun-fdp/src/",
    `for f in ${left.join(' ')}; do rm -f /tmp/faun-fdp/src/$f.java; done`,
    "cp $(find fastdoubleparser-java8/src/main/java -name '*.java') /tmp/faun-fdp/src/",
    'javac -nowarn --release 8 -encoding UTF-8 -d /tmp/faun-fdp/classes /tmp/faun-fdp/src/*.java',
    `mkdir -p ${dir}`,
    `jar cf ${dir}/fastdoubleparser-${version}.jar -C /tmp/faun-fdp/classes .`,
    `printf '%s\\n' '${pom}' > ${dir}/fastdoubleparser-${version}.pom`,
    `cd / && rm -rf /tmp/faun-fdp ${FDP_SRC}`,
  ].join(' && ');
}

/**
 * AssertJ as jackson-core 2.16+ tests with it: the `version.assertj` of the parents its POMs inherit
 * (com.fasterxml:oss-parent 56 to 61), and that release's commit (github.com/assertj/assertj tag
 * assertj-build-<version>). Debian ships 3.14.0, which lacks API the tests use (`ThrowingConsumer`,
 * `succeedsWithin`).
 */
export const ASSERTJ = { version: '3.24.2', commit: '8bc21a44244c1b9897c0ed5711bfd44c31abd223' };
/** The byte-buddy version that AssertJ release depends on, which is also Debian bookworm's. */
export const ASSERTJ_BYTE_BUDDY = '1.12.21';
const AJ_SRC = '/opt/faun-src/assertj';

/**
 * Env step: assertj-core built from its release tree (its main sources compiled for Java 8 against
 * Debian's byte-buddy, JUnit 4 / Jupiter API, Hamcrest and opentest4j, as its POM compiles them), into
 * Debian's Maven repository with a POM naming its one compile dependency, byte-buddy.
 */
export function assertjStep(): string {
  const { version } = ASSERTJ;
  const dir = `/usr/share/maven-repo/org/assertj/assertj-core/${version}`;
  const pom =
    '<project><modelVersion>4.0.0</modelVersion><groupId>org.assertj</groupId>' +
    `<artifactId>assertj-core</artifactId><version>${version}</version><dependencies><dependency>` +
    '<groupId>net.bytebuddy</groupId><artifactId>byte-buddy</artifactId>' +
    `<version>${ASSERTJ_BYTE_BUDDY}</version></dependency></dependencies></project>`;
  const cp = ['byte-buddy', 'junit4', 'hamcrest', 'junit-jupiter-api', 'opentest4j']
    .map((j) => `/usr/share/java/${j}.jar`)
    .join(':');
  return [
    `mkdir -p /tmp/faun-aj && cd ${AJ_SRC}/assertj-core`,
    `javac -nowarn --release 8 -encoding UTF-8 -cp ${cp} -d /tmp/faun-aj ` +
      "$(find src/main/java -name '*.java' ! -name module-info.java)",
    `mkdir -p ${dir}`,
    `jar cf ${dir}/assertj-core-${version}.jar -C /tmp/faun-aj .`,
    `printf '%s\\n' '${pom}' > ${dir}/assertj-core-${version}.pom`,
    `cd / && rm -rf /tmp/faun-aj ${AJ_SRC}`,
  ].join(' && ');
}

/**
 * jackson-core's spec for a tree with these extra dependencies: fastdoubleparser (fastDoubleParserStep)
 * and AssertJ (assertjStep) built from their sources.
 */
export function jacksonCoreSpec(deps: JacksonCoreDeps): EnvSpec {
  const fdp = deps.fastdoubleparser;
  const commit = fdp ? FASTDOUBLEPARSER_COMMITS[fdp] : undefined;
  if (fdp && !commit) throw new Error(`no fastdoubleparser ${fdp} source commit known`);
  const sources = [
    ...(fdp && commit ? [{ repo: 'wrandelshofer/FastDoubleParser', commit, dest: FDP_SRC }] : []),
    ...(deps.assertj ? [{ repo: 'assertj/assertj', commit: ASSERTJ.commit, dest: AJ_SRC }] : []),
  ];
  return {
    // Multi-SWE-bench: `mvn clean test -Dmaven.test.skip=false -DfailIfNoTests=false` over the whole suite,
    // graded per test class from Surefire's summary lines. Here only the test classes the test patch
    // touches run (`-Dtest=`, as SWE-bench-java selects tests): the whole suite takes over 20 minutes on a
    // shared 2-core machine. The grading (per class, Multi-SWE-bench's parser) is unchanged. Debian has no clean plugin: `rm -rf target`.
    // 2.14 tests with JUnit 4 through the vintage engine plus a few Jupiter tests (Debian's 5.9.2).
    name: 'FasterXML/jackson-core',
    versions: ['2.14'],
    toolchain: 'java',
    apt: deps.assertj ? [...JAVA_APT, 'libbyte-buddy-java', 'libopentest4j-java'] : JAVA_APT,
    ...(sources.length ? { sources } : {}),
    envSetup: [
      ...(fdp ? [fastDoubleParserStep(fdp)] : []),
      ...(deps.assertj ? [assertjStep()] : []),
      writeFileStep(
        JACKSON_CORE_POM,
        standinPom({
          groupId: 'com.fasterxml.jackson.core',
          artifactId: 'jackson-core',
          version: '2.14.0',
          release: '8',
          excludes: ['**/failing/**/*.java'],
          ...(fdp ? { deps: [`ch.randelshofer:fastdoubleparser:${fdp}`] } : {}),
          testDeps: [
            ...JACKSON_TEST_DEPS,
            ...(deps.assertj ? [`org.assertj:assertj-core:${ASSERTJ.version}`] : []),
          ],
        }),
      ),
    ],
    install: [
      packageVersionStep(
        'com.fasterxml.jackson.core.json',
        '2.14.0',
        'com.fasterxml.jackson.core',
        'jackson-core',
      ),
    ],
    ...mavenRun(JACKSON_CORE_POM),
    specVersion: '1',
  };
}

export const JAVA_SPECS: EnvSpec[] = [
  jacksonCoreSpec(NO_EXTRA_DEPS),
  {
    // Multi-SWE-bench's command and parser as jackson-core's; the same touched-classes selection. 2.14 builds
    // against upstream jackson-core 2.14.1 (built from Debian's source package: jacksonCoreUpstreamStep) and
    // Debian's jackson-annotations 2.14.0 (the versions its POM asks for: 2.14.x). Five test sources need
    // test libraries Debian does not ship (jol, jsr-275, powermock, guava-testlib) and are left out of
    // compilation and runs; none is a test a fix touches here.
    name: 'FasterXML/jackson-databind',
    versions: ['2.14'],
    toolchain: 'java',
    apt: [...JAVA_APT, 'libjackson2-annotations-java', 'libmockito-java', 'xz-utils'],
    envSetup: [
      jacksonCoreUpstreamStep('2.14.1'),
      writeFileStep(
        JACKSON_DATABIND_POM,
        standinPom({
          groupId: 'com.fasterxml.jackson.core',
          artifactId: 'jackson-databind',
          version: '2.14.0',
          release: '8',
          excludes: ['**/failing/**/*.java', '**/MapperFootprintTest.java'],
          deps: [
            'com.fasterxml.jackson.core:jackson-annotations:2.14.0',
            'com.fasterxml.jackson.core:jackson-core:2.14.1-upstream',
          ],
          testDeps: [...JACKSON_TEST_DEPS, 'org.mockito:mockito-core:2.23.0'],
          testExcludes: [
            'com/fasterxml/jackson/databind/MapperFootprintTest.java',
            'com/fasterxml/jackson/databind/introspect/NoClassDefFoundWorkaroundTest.java',
            'com/fasterxml/jackson/databind/type/TestTypeFactoryWithClassLoader.java',
            'com/fasterxml/jackson/databind/util/internal/CLHMTestlibTests.java',
            'com/fasterxml/jackson/databind/util/internal/MapTestFactory.java',
          ],
        }),
      ),
    ],
    install: [
      packageVersionStep(
        'com.fasterxml.jackson.databind.cfg',
        '2.14.0',
        'com.fasterxml.jackson.core',
        'jackson-databind',
      ),
    ],
    ...mavenRun(JACKSON_DATABIND_POM, true),
    specVersion: '1',
  },
];
