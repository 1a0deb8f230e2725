/**
 * jackson-dataformat-xml offline: every dependency its base's POM asks for that Debian bookworm does not
 * ship at that version is compiled from its release tree (a mirror copied into the repo-env layer) and
 * put in Debian's Maven repository (/usr/share/maven-repo) with a dependency-free POM; the stand-in POM
 * names them all. What a base asks for is read from its `pom.xml` (jacksonXmlDeps).
 */
import {
  FASTDOUBLEPARSER_COMMITS,
  fastDoubleParserStep,
  packageVersionStep,
  standinPom,
} from './repo-specs-java.ts';
import { SJSXP_GAV, sjsxpStandinSources } from './sjsxp-standin.ts';
import { writeFileStep } from './spec-steps.ts';
import type { EnvSource, EnvSpec } from './specs.ts';

/** What a jackson-dataformat-xml base's `pom.xml` asks for. */
export interface JacksonXmlDeps {
  /** The `jackson-base` parent's version line (`2.14`). */
  line: string;
  /** The parent's version as written (`2.14.0-SNAPSHOT`). */
  parentVersion: string;
  woodstox: string;
  stax2: string;
  jakartaXmlBind: string;
  /** Whether the POM asks for com.sun.xml.stream:sjsxp (a test dependency with no source here). */
  sjsxp: boolean;
}

const version = (pom: string, artifact: string): string | null =>
  new RegExp(`<artifactId>${artifact}</artifactId>\\s*<version>([\\w.-]+)</version>`).exec(pom)?.[1] ?? null;

/** The versions a jackson-dataformat-xml `pom.xml` asks for (pure; the text is only matched), or why not. */
export function jacksonXmlDeps(pomXml: string): JacksonXmlDeps | { error: string } {
  const parent = /<parent>[\s\S]*?<\/parent>/.exec(pomXml)?.[0] ?? '';
  const parentVersion = version(parent, 'jackson-base');
  const woodstox = version(pomXml, 'woodstox-core');
  const stax2 = version(pomXml, 'stax2-api');
  const jakartaXmlBind = version(pomXml, 'jakarta.xml.bind-api');
  const missing = Object.entries({
    'jackson-base parent': parentVersion,
    'woodstox-core': woodstox,
    'stax2-api': stax2,
    'jakarta.xml.bind-api': jakartaXmlBind,
  })
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length) return { error: `its pom.xml names no version of ${missing.join(', ')}` };
  const line = /^(\d+\.\d+)\./.exec(parentVersion!)?.[1];
  if (!line) return { error: `jackson-base ${parentVersion}: not a version line` };
  return {
    line,
    parentVersion: parentVersion!,
    woodstox: woodstox!,
    stax2: stax2!,
    jakartaXmlBind: jakartaXmlBind!,
    sjsxp: /<artifactId>sjsxp<\/artifactId>/.test(pomXml),
  };
}

/**
 * Per Jackson version line: the release whose tags stand in for the snapshots Multi-SWE-bench's prepare step
 * sets (its version), the commits of those tags, and the fastdoubleparser that jackson-core release shades.
 */
export interface JacksonLine {
  release: string;
  msbVersion: string;
  core: string;
  databind: string;
  annotations: string;
  modulesBase: string;
  fastdoubleparser: string | null;
}
export const JACKSON_LINES: Record<string, JacksonLine> = {
  '2.14': {
    release: '2.14.3',
    msbVersion: '2.14.4-SNAPSHOT',
    core: '71a70fa09e6a5f9f2bf9cf3caf5a2557fb1c10a4',
    databind: '8cdba2177a411c9dfc8949bbf0f23b4fa8ef5d8d',
    annotations: '7df64f2106c54597570c78804f1ed63400504d82',
    modulesBase: '0cc7907f2660eeaeb51e030b145ce4d85068cb0b',
    fastdoubleparser: null,
  },
  '2.15': {
    release: '2.15.4',
    msbVersion: '2.15.5-SNAPSHOT',
    core: 'c8e843bb78a5ec535b094b87afaa4843adcde124',
    databind: '3bf83c17335bca1ae61fbd0a7aa144056cd4b754',
    annotations: 'c5e6e7d2dc04d7f2ca39fc60615d91e9f5661c81',
    modulesBase: '3baa0119e8c3dc5ad7caaa781a8f10a41b70b8b9',
    fastdoubleparser: '1.0.0',
  },
  // no published row of this line: the snapshot after its last release, as for the others
  '2.16': {
    release: '2.16.2',
    msbVersion: '2.16.3-SNAPSHOT',
    core: '4162dfc503bd97e6824b1d5baa6de7895d3b3367',
    databind: 'a04a0a1852acf9ab5a80d10631026d9814436114',
    annotations: '6a2d806e4aec3e481ac8e78532c31fb4cbf29ad7',
    modulesBase: '757c09f130dc7ccbe607b5880f00f6a31cff3c47',
    fastdoubleparser: '1.0.0',
  },
  '2.17': {
    release: '2.17.3',
    msbVersion: '2.17.4-SNAPSHOT',
    core: '44d1e782d56e46f4cf79c156b5286a8c4c7fbc7f',
    databind: '642423256392d1d3c03c5dbe33289da19d0f7072',
    annotations: '8d54a953e281e8070e0ca5d84c5b53ab0bd0a395',
    modulesBase: 'f811f1065217c01c1015a2d71354115b0d31245f',
    fastdoubleparser: '1.0.1',
  },
};

/** Release commits: woodstox-core (tags woodstox-core-<v>), stax2-api (stax2-api-<v>). */
export const WOODSTOX_COMMITS: Record<string, string> = {
  '6.2.7': '203f8b217c92b7bd3337abc9fccc50965baf4f99',
  '6.3.1': '8f35b05cfaef7e54b135493d81d989147d2ae75f',
  '6.4.0': 'e8f00401bebd103f62d51383ef53da2cd58bd89e',
  '6.5.0': '830654b03458d7bbb3d83fc72d2ef44021db32b5',
  '6.5.1': '725694cd20aa6853229f737c667fcd3dc9f3b8ca',
  '6.6.0': 'dd590bbabe1060c3837559d1d5d237b0c60c2e29',
  '6.6.1': '03ab814e73d8dc6c40aaaea33625b6ca4431f9fe',
  '6.6.2': '3bed26213d3446e50408a2f10f8eabf5219c9035',
};
export const STAX2_COMMITS: Record<string, string> = {
  '4.2.1': '8f10bb50124cb70048a3ec8dd2dca4421a04733c',
  '4.2.2': '6bd3896d64a0bab3321586edcbc85e2c21c8012d',
};
/** jakarta.xml.bind-api (eclipse-ee4j/jaxb-api tag 3.0.1) and the activation it depends on (eclipse-ee4j/jaf 2.0.1). */
export const JAXB_API = { version: '3.0.1', commit: 'd8a68e76a5391cb2462f540c9e4c5c81d0a91942' };
export const JAF = { version: '2.0.1', commit: '58f91fb5e1e128f13b5e44053839cbf07ebaa5a6' };

export const JACKSON_XML_POM = '/opt/faun-java/jackson-dataformat-xml/pom.xml';
const REPO = '/usr/share/maven-repo';
const SRC = '/opt/faun-src';

/** Debian's Maven repository path of `group:artifact:version`'s jar. */
export const repoJar = (gav: string): string => {
  const [g, a, v] = gav.split(':');
  return `${REPO}/${g!.replaceAll('.', '/')}/${a}/${v}/${a}-${v}.jar`;
};

/** One artifact compiled from a source tree into Debian's Maven repository. */
export interface JarBuild {
  /** `group:artifact:version` it is installed as. */
  gav: string;
  /** The module's folder in the image (its source tree's `dest`, or a folder under it). */
  dir: string;
  /** Its classpath (`group:artifact:version` of jars already installed). */
  cp: string[];
  /** Jar files (absolute paths: Debian's) on its classpath whose classes the jar also carries, as a shaded jar does. */
  bundle?: string[];
  /** `find` arguments leaving sources out (`! -path PATTERN`). */
  leaveOut?: string;
  /** Shell run in `dir` first (generated sources, edits). */
  prepare?: string[];
  /** Files removed from the jar's resources (paths under src/main/resources). */
  dropResources?: string[];
  /** Java release its classes are compiled for (default 8). */
  release?: string;
  /** Sources written first (path under `dir`/src/main/java: text), for a module with no source tree of its own. */
  files?: Record<string, string>;
}

/**
 * Env step (shell): one JarBuild — javac for Java 8 (or its release), its resources, a jar and a POM in
 * Debian's repository.
 */
export function jarBuildStep(b: JarBuild): string {
  const [g, a, v] = b.gav.split(':');
  const jar = repoJar(b.gav);
  const pom =
    `<project><modelVersion>4.0.0</modelVersion><groupId>${g}</groupId>` +
    `<artifactId>${a}</artifactId><version>${v}</version></project>`;
  const jars = [...b.cp.map(repoJar), ...(b.bundle ?? [])];
  const cp = jars.length ? ` -cp ${jars.join(':')}` : '';
  return [
    ...Object.entries(b.files ?? {}).map(([path, text]) =>
      writeFileStep(`${b.dir}/src/main/java/${path}`, text),
    ),
    `cd ${b.dir}`,
    ...(b.prepare ?? []),
    'mkdir -p /tmp/faun-jar',
    // the bundled jars' classes first (without their manifests), then the module's own
    ...(b.bundle?.length
      ? [`(cd /tmp/faun-jar && for j in ${b.bundle.join(' ')}; do jar xf $j; done && rm -rf META-INF)`]
      : []),
    `javac -nowarn --release ${b.release ?? '8'} -encoding UTF-8${cp} -d /tmp/faun-jar ` +
      `$(find src/main/java -name '*.java' ! -name module-info.java${b.leaveOut ? ` ${b.leaveOut}` : ''})`,
    '{ [ ! -d src/main/resources ] || cp -r src/main/resources/. /tmp/faun-jar/; }',
    ...(b.dropResources ?? []).map((r) => `rm -f /tmp/faun-jar/${r}`),
    `mkdir -p ${jar.slice(0, jar.lastIndexOf('/'))}`,
    `jar cf ${jar} -C /tmp/faun-jar .`,
    `printf '%s\\n' '${pom}' > ${jar.replace(/\.jar$/, '.pom')}`,
    `cd / && rm -rf /tmp/faun-jar ${b.dir}`,
  ].join(' && ');
}

/**
 * Debian's MSV jars (libmsv-java 2009.1, librelaxng-datatype-java 1.0, libisorelax-java 20041111): woodstox-core's
 * jar shades msv-core / xsdlib 2013.6.1 (6.2–6.3) or 2022.7 (6.4+), relaxngDatatype 20020414 and isorelax.
 */
export const MSV_JARS = ['msv-core-2009.1', 'xsdlib-2009.1', 'relaxngDatatype-1.0', 'isorelax-20041111'].map(
  (j) => `/usr/share/java/${j}.jar`,
);
export const MSV_APT = ['libmsv-java', 'librelaxng-datatype-java', 'libisorelax-java'];

/** Surefire's JVM arguments: OpenJDK 17 opens what Java 8 left open to reflection (the tests ran on openjdk-8). */
export const JAVA8_OPENS =
  '--add-opens java.base/java.util=ALL-UNNAMED --add-opens java.base/java.lang=ALL-UNNAMED';

/** What jacksonXmlSpec builds for a base (pure): the sources, the artifacts in build order, the stand-in POM's dependencies. */
export interface JacksonXmlBuild {
  sources: EnvSource[];
  jars: JarBuild[];
  /**
   * The fastdoubleparser jackson-core is compiled against: the version its release shades, built from its tag
   * (fastDoubleParserStep), or Debian's (fastDoubleParserDebianStep); null when it needs none.
   */
  fastdoubleparser: { version: string; from: 'source' | 'debian'; asked: string } | null;
  deps: string[];
  testDeps: string[];
}

/**
 * Debian trixie's fastdoubleparser (libfastdoubleparser-java, with a Java 8 base): what jackson-core 2.15+ is
 * compiled against when its own version's tree is not here (bookworm ships none).
 */
export const FDP_DEBIAN = { version: '2.0.1', deb: '2.0.1-2' };

/**
 * Env step: Debian trixie's fastdoubleparser jar (the package downloaded, not installed) put in Debian's
 * Maven repository with a dependency-free POM.
 */
export function fastDoubleParserDebianStep(): string {
  const { version, deb } = FDP_DEBIAN;
  const jar = repoJar(`ch.randelshofer:fastdoubleparser:${version}`);
  const pom =
    '<project><modelVersion>4.0.0</modelVersion><groupId>ch.randelshofer</groupId>' +
    `<artifactId>fastdoubleparser</artifactId><version>${version}</version></project>`;
  return [
    "sed -n 's/^\\(deb \\S*\\) bookworm main$/\\1 trixie main/p' /etc/apt/sources.list > /etc/apt/sources.list.d/faun-trixie.list",
    'apt-get update',
    'mkdir -p /tmp/faun-fdp && cd /tmp/faun-fdp',
    `apt-get download libfastdoubleparser-java=${deb}`,
    'dpkg -x libfastdoubleparser-java_*.deb x',
    `mkdir -p ${jar.slice(0, jar.lastIndexOf('/'))}`,
    `cp x/usr/share/java/fastdoubleparser-${version}.jar ${jar}`,
    `printf '%s\\n' '${pom}' > ${jar.replace(/\.jar$/, '.pom')}`,
    'cd / && rm -rf /tmp/faun-fdp /etc/apt/sources.list.d/faun-trixie.list /var/lib/apt/lists/*',
  ].join(' && ');
}

/**
 * The fastdoubleparser of a line: from its tag when that tree is here (`sourceHere`) and its commit known,
 * else Debian's.
 */
function fdpFor(l: JacksonLine, sourceHere: boolean): JacksonXmlBuild['fastdoubleparser'] {
  const asked = l.fastdoubleparser;
  if (!asked) return null;
  return sourceHere && FASTDOUBLEPARSER_COMMITS[asked]
    ? { version: asked, from: 'source', asked }
    : { version: FDP_DEBIAN.version, from: 'debian', asked };
}

/** A source tree copied into the env layer under /opt/faun-src/`name`. */
const src = (repo: string, commit: string, name: string): EnvSource => ({
  repo,
  commit,
  dest: `${SRC}/${name}`,
});

/**
 * The builds for a base's dependencies, or why there are none. `fdpSource`: whether FastDoubleParser's tree
 * is here (its mirror), else jackson-core 2.15+ is compiled against Debian's fastdoubleparser.
 */
export function jacksonXmlBuild(d: JacksonXmlDeps, fdpSource = true): JacksonXmlBuild | { error: string } {
  const l = JACKSON_LINES[d.line];
  if (!l) return { error: `jackson-base ${d.parentVersion}: no release tags known for the ${d.line} line` };
  const wstx = WOODSTOX_COMMITS[d.woodstox];
  const stax2 = STAX2_COMMITS[d.stax2];
  if (!wstx) return { error: `no woodstox-core ${d.woodstox} source commit known` };
  if (!stax2) return { error: `no stax2-api ${d.stax2} source commit known` };
  if (d.jakartaXmlBind !== JAXB_API.version)
    return { error: `no jakarta.xml.bind-api ${d.jakartaXmlBind} source commit known` };
  const fdpBuild = fdpFor(l, fdpSource);
  const fdp = fdpBuild?.version;
  const fdpCommit = fdpBuild?.from === 'source' ? FASTDOUBLEPARSER_COMMITS[fdpBuild.version] : undefined;
  const v = l.release;
  const gav = {
    stax2: `org.codehaus.woodstox:stax2-api:${d.stax2}`,
    woodstox: `com.fasterxml.woodstox:woodstox-core:${d.woodstox}`,
    annotations: `com.fasterxml.jackson.core:jackson-annotations:${v}`,
    core: `com.fasterxml.jackson.core:jackson-core:${v}`,
    databind: `com.fasterxml.jackson.core:jackson-databind:${v}`,
    fdp: `ch.randelshofer:fastdoubleparser:${fdp}`,
    activation: `com.sun.activation:jakarta.activation:${JAF.version}`,
    xmlbind: `jakarta.xml.bind:jakarta.xml.bind-api:${JAXB_API.version}`,
    module: `com.fasterxml.jackson.module:jackson-module-jakarta-xmlbind-annotations:${v}`,
  };
  const sources = [
    ...(fdp && fdpCommit ? [src('wrandelshofer/FastDoubleParser', fdpCommit, 'fastdoubleparser')] : []),
    src('FasterXML/stax2-api', stax2, 'stax2-api'),
    src('FasterXML/woodstox', wstx, 'woodstox'),
    src('FasterXML/jackson-annotations', l.annotations, 'jackson-annotations'),
    src('FasterXML/jackson-core', l.core, 'jackson-core'),
    src('FasterXML/jackson-databind', l.databind, 'jackson-databind'),
    src('eclipse-ee4j/jaf', JAF.commit, 'jaf'),
    src('eclipse-ee4j/jaxb-api', JAXB_API.commit, 'jaxb-api'),
    src('FasterXML/jackson-modules-base', l.modulesBase, 'jackson-modules-base'),
  ];
  const pv = (pkg: string, group: string, artifact: string) => packageVersionStep(pkg, v, group, artifact);
  const jars: JarBuild[] = [
    { gav: gav.stax2, dir: `${SRC}/stax2-api`, cp: [] },
    {
      gav: gav.woodstox,
      dir: `${SRC}/woodstox`,
      cp: [gav.stax2],
      // MSV (RelaxNG / W3C Schema validation) carried in the jar as its shaded jar does, from Debian's jars
      bundle: MSV_JARS,
      // the optional OSGi package, and bnd's build-time annotations
      leaveOut: "! -path '*/com/ctc/wstx/osgi/*'",
      prepare: [
        "grep -rlZ 'aQute.bnd' src/main/java | xargs -0 -r sed -i -E -e '/^import (static )?aQute\\.bnd/d' " +
          "-e 's/^@ServiceProvider\\(.*\\)$//'",
      ],
    },
    { gav: gav.annotations, dir: `${SRC}/jackson-annotations`, cp: [] },
    {
      gav: gav.core,
      dir: `${SRC}/jackson-core`,
      cp: fdp ? [gav.fdp] : [],
      prepare: [pv('com.fasterxml.jackson.core.json', 'com.fasterxml.jackson.core', 'jackson-core')],
    },
    {
      gav: gav.databind,
      dir: `${SRC}/jackson-databind`,
      cp: [gav.annotations, gav.core],
      prepare: [pv('com.fasterxml.jackson.databind.cfg', 'com.fasterxml.jackson.core', 'jackson-databind')],
    },
    { gav: gav.activation, dir: `${SRC}/jaf/activation`, cp: [] },
    { gav: gav.xmlbind, dir: `${SRC}/jaxb-api/jaxb-api`, cp: [gav.activation] },
    {
      gav: gav.module,
      dir: `${SRC}/jackson-modules-base/jakarta-xmlbind`,
      cp: [gav.annotations, gav.core, gav.databind, gav.xmlbind, gav.activation],
      prepare: [
        pv(
          'com.fasterxml.jackson.module.jakarta.xmlbind',
          'com.fasterxml.jackson.module',
          'jackson-module-jakarta-xmlbind-annotations',
        ),
      ],
    },
    // SJSXP: the stand-in (sjsxp-standin.ts), for Java 11 (XMLInputFactory.newDefaultFactory); the tests run on 17
    ...(d.sjsxp
      ? [{ gav: SJSXP_GAV, dir: `${SRC}/sjsxp`, cp: [], release: '11', files: sjsxpStandinSources() }]
      : []),
  ];
  return {
    sources,
    jars,
    fastdoubleparser: fdpBuild,
    deps: [gav.annotations, gav.core, gav.databind, gav.stax2, gav.woodstox, ...(fdp ? [gav.fdp] : [])],
    testDeps: [
      'org.junit.vintage:junit-vintage-engine:5.9.2',
      'org.junit.jupiter:junit-jupiter:5.9.2',
      gav.module,
      gav.xmlbind,
      gav.activation,
      ...(d.sjsxp ? [SJSXP_GAV] : []),
    ],
  };
}

/**
 * The one test source that needs SJSXP (com.sun.xml.stream:sjsxp 1.0.2), which has no source here: it runs
 * against the stand-in (sjsxp-standin.ts).
 */
export const SJSXP_TEST = 'com/fasterxml/jackson/dataformat/xml/interop/NonWoodstoxStaxImpl482Test.java';

/** jackson-dataformat-xml's spec for a base asking for `d` (its builds: jacksonXmlBuild), or why there is none. */
export function jacksonXmlSpec(
  d: JacksonXmlDeps,
  fdpSource = true,
): { spec: EnvSpec; build: JacksonXmlBuild } | { error: string } {
  const b = jacksonXmlBuild(d, fdpSource);
  if ('error' in b) return b;
  const version = JACKSON_LINES[d.line]!.msbVersion;
  const pom = standinPom({
    groupId: 'com.fasterxml.jackson.dataformat',
    artifactId: 'jackson-dataformat-xml',
    version,
    release: '8',
    excludes: ['com/fasterxml/jackson/dataformat/xml/failing/*.java'],
    includes: ['**/Test*.java', '**/*Test.java'],
    argLine: JAVA8_OPENS,
    deps: b.deps,
    testDeps: b.testDeps,
  });
  const cmd = `mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo -f ${JACKSON_XML_POM}`;
  const spec: EnvSpec = {
    // Multi-SWE-bench's whole-suite command (the msb-published plan sets it); graded per test class.
    name: 'FasterXML/jackson-dataformat-xml',
    versions: [d.line],
    toolchain: 'java',
    apt: ['libmaven-resources-plugin-java', 'junit4', 'libhamcrest-java', ...MSV_APT],
    sources: b.sources,
    envSetup: [
      // fastDoubleParserStep reads the tree at /opt/faun-src/fastdoubleparser: the dest above
      ...(b.fastdoubleparser
        ? [
            b.fastdoubleparser.from === 'source'
              ? fastDoubleParserStep(b.fastdoubleparser.version)
              : fastDoubleParserDebianStep(),
          ]
        : []),
      ...b.jars.map(jarBuildStep),
      writeFileStep(JACKSON_XML_POM, pom),
    ],
    install: [
      packageVersionStep(
        'com.fasterxml.jackson.dataformat.xml',
        version,
        'com.fasterxml.jackson.dataformat',
        'jackson-dataformat-xml',
      ),
    ],
    testCmd: `rm -rf target; ${cmd} test -Dmaven.test.skip=false -DfailIfNoTests=false 2>&1`,
    parser: 'msb-maven-class',
    env: { MAVEN_OPTS: '-Xmx1g' },
    specVersion: '1',
  };
  return { spec, build: b };
}
