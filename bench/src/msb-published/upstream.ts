/**
 * How Multi-SWE-bench runs each repository, and how faun runs it offline (pure). The upstream commands are
 * re-expressed from Multi-SWE-bench's per-repository definitions (multi_swe_bench/harness/repos/<lang>/
 * <org>/<repo>.py at the dataset's commit); every way faun's run differs from them is a {@link Deviation},
 * recorded per instance. A repository without an entry here is reported as one faun cannot build, with the
 * reason.
 */

import type { JacksonXmlDeps } from '@faun/harness';
import {
  ASSERTJ,
  type EnvSpec,
  FASTDOUBLEPARSER_COMMITS,
  FDP_DEBIAN,
  JACKSON_LINES,
  JAF,
  JAVA8_OPENS,
  JAXB_API,
  jacksonCoreDeps,
  jacksonCoreSpec,
  jacksonXmlDeps,
  jacksonXmlSpec,
  SJSXP_TEST,
} from '@faun/harness';

/** What the plan reads from the row's base tree: its `pom.xml`. */
export interface BaseTree {
  pomXml: string;
  /** Whether a repository's tree is here to build from (its mirror); absent: every one is. */
  hasSource?: (repo: string) => boolean;
}

import type { Language } from '@faun/schema';

/** One difference between the upstream command or tree and faun's. */
export interface Deviation {
  what: string;
  upstream: string;
  faun: string;
  /** Whether it can change which tests run (then the instance's `tests_run` comparison says whether it did). */
  may_change_tests_run: boolean;
}

export interface RepoPlan {
  language: Language;
  /** The command Multi-SWE-bench runs in each of its three stages. */
  upstream_command: string;
  /** faun's command in each stage. */
  command: string;
  deviations: Deviation[];
  /** faun's environment (the repository's spec, its test command replaced by `command`). */
  spec: EnvSpec;
}

export type Plan = { plan: RepoPlan } | { unsupported: string };

const MVN_OFFLINE = 'mvn -o -B -Dmaven.repo.local=/usr/share/maven-repo';
const MVN_UPSTREAM_FLAGS = '-Dmaven.test.skip=false -DfailIfNoTests=false';
const PERF_968 = 'com.fasterxml.jackson.failing.PerfBigDecimalToInteger968';

interface MavenRepo {
  /** The stand-in POM faun's spec writes. */
  pom: string;
  /** PRs whose Multi-SWE-bench scripts run another command: theirs, and the flags faun adds for it. */
  perPr?: Record<number, { upstream: string; flags: string; dropped?: string }>;
  /**
   * The spec for a tree whose `pom.xml` is this (when it depends on what the POM asks for), and its
   * deviations; or why faun has none for it.
   */
  specOf?: (tree: BaseTree) => { spec: EnvSpec; deviations: Deviation[] } | { unsupported: string };
  /** The stand-in POM deviation's faun side (default: jackson-core's). */
  standin?: string;
  /** Whether only `specOf` can give its spec (faun's registered specs are versions of its own rows). */
  treeOnly?: boolean;
}

/**
 * jackson-core 2.15+ needs fastdoubleparser, 2.16+ AssertJ: both built from their release trees into
 * Debian's repository (Debian ships no fastdoubleparser, and an AssertJ too old for the tests).
 */
export function jacksonCoreFor(tree: BaseTree): { spec: EnvSpec; deviations: Deviation[] } {
  const deps = jacksonCoreDeps(tree.pomXml);
  const deviations: Deviation[] = [];
  if (deps.fastdoubleparser)
    deviations.push({
      what: 'dependency built from source',
      upstream: `ch.randelshofer:fastdoubleparser:${deps.fastdoubleparser} from Maven Central (shaded at package time)`,
      faun: `its Java 8 classes compiled from the v${deps.fastdoubleparser} tag (Debian ships none)`,
      may_change_tests_run: false,
    });
  if (deps.assertj)
    deviations.push({
      what: 'dependency built from source',
      upstream: `org.assertj:assertj-core:${ASSERTJ.version} (the parent POM's version.assertj) from Maven Central`,
      faun:
        `assertj-core's main classes compiled from the assertj-build-${ASSERTJ.version} tag against Debian's byte-buddy ` +
        "1.12.21 (its own version); Debian's 3.14.0 lacks API the tests use",
      may_change_tests_run: false,
    });
  return { spec: jacksonCoreSpec(deps), deviations };
}

const fromSource = (upstream: string, faun: string): Deviation => ({
  what: 'dependency built from source',
  upstream,
  faun,
  may_change_tests_run: false,
});

/**
 * jackson-dataformat-xml: every dependency built from its release tree at the version the base's POM asks
 * for, the Jackson snapshots of Multi-SWE-bench's prepare step replaced by the line's last release tags.
 */
export function jacksonXmlFor(
  tree: BaseTree,
): { spec: EnvSpec; deviations: Deviation[] } | { unsupported: string } {
  const d = jacksonXmlDeps(tree.pomXml);
  if ('error' in d) return { unsupported: `jackson-dataformat-xml: ${d.error}` };
  return jacksonXmlForDeps(d, tree.hasSource?.('wrandelshofer/FastDoubleParser') ?? true);
}

/** jacksonXmlFor for what a base asks for (`fdpSource`: whether FastDoubleParser's tree is here). */
export function jacksonXmlForDeps(
  d: JacksonXmlDeps,
  fdpSource = true,
): { spec: EnvSpec; deviations: Deviation[] } | { unsupported: string } {
  const s = jacksonXmlSpec(d, fdpSource);
  if ('error' in s) return { unsupported: `jackson-dataformat-xml: ${s.error}` };
  const l = JACKSON_LINES[d.line]!;
  const central = (gav: string) => `${gav} from Maven Central`;
  const deviations: Deviation[] = [
    {
      what: 'release tags for snapshots',
      upstream:
        `jackson-annotations / jackson-core / jackson-databind / jackson-module-jakarta-xmlbind-annotations ${l.msbVersion} ` +
        `(the prepare step rewrites the POM's version and its jackson-base parent's ${d.parentVersion} to it): ` +
        "snapshots of the branch as they were when Multi-SWE-bench's images were built",
      faun: `each compiled for Java 8 from its ${l.release} release tag (jackson-<name>-${l.release}), Debian ships 2.14.0`,
      may_change_tests_run: false,
    },
    fromSource(
      central(`org.codehaus.woodstox:stax2-api:${d.stax2}`),
      `its classes compiled from the stax2-api-${d.stax2} tag (Debian ships 4.1)`,
    ),
    fromSource(
      `${central(`com.fasterxml.woodstox:woodstox-core:${d.woodstox}`)}, which shades MSV (msv-core / xsdlib, ` +
        'relaxngDatatype, isorelax) relocated',
      `compiled from the woodstox-core-${d.woodstox} tag without its optional OSGi package and bnd's build-time ` +
        "@ServiceProvider annotations, carrying Debian's MSV classes (msv-core / xsdlib 2009.1, relaxngDatatype 1.0, " +
        'isorelax 20041111) not relocated (Debian ships woodstox 6.2.1)',
    ),
    {
      what: 'JVM options',
      upstream: "the tests' JVM: openjdk-8, where reflection reaches into java.util / java.lang",
      faun: `Surefire's argLine ${JAVA8_OPENS} (OpenJDK 17 closes them)`,
      may_change_tests_run: false,
    },
    fromSource(
      `${central(`jakarta.xml.bind:jakarta.xml.bind-api:${JAXB_API.version}`)}, with com.sun.activation:jakarta.activation ` +
        `${JAF.version} (its dependency) and jakarta.activation:jakarta.activation-api 2.1.0 (the module's)`,
      `jakarta.xml.bind-api compiled from the ${JAXB_API.version} tag of eclipse-ee4j/jaxb-api, and Jakarta Activation ` +
        `from the ${JAF.version} tag of eclipse-ee4j/jaf (its com.sun.activation:jakarta.activation) standing for both ` +
        'activation artifacts (Debian ships neither at these versions)',
    ),
    fromSource(
      `com.fasterxml.jackson.module:jackson-module-jakarta-xmlbind-annotations:${l.msbVersion}, a snapshot (above)`,
      `compiled from the jackson-modules-base-${l.release} tag against jakarta.xml.bind-api ${JAXB_API.version}`,
    ),
  ];
  const fdp = s.build.fastdoubleparser;
  const shaded = `${central(`ch.randelshofer:fastdoubleparser:${fdp?.asked}`)}, shaded into jackson-core ${l.release}`;
  if (fdp?.from === 'source')
    deviations.push(
      fromSource(
        shaded,
        `its Java 8 classes compiled from the v${fdp.version} tag, a dependency of its own (not shaded)`,
      ),
    );
  if (fdp?.from === 'debian')
    deviations.push({
      what: "Debian's version",
      upstream: shaded,
      faun:
        `Debian trixie's libfastdoubleparser-java ${FDP_DEBIAN.deb} (fastdoubleparser ${fdp.version}), jackson-core ` +
        `compiled against it, a dependency of its own (not shaded): ${FASTDOUBLEPARSER_COMMITS[fdp.asked] ? 'no mirror of wrandelshofer/FastDoubleParser here' : `no source commit of ${fdp.asked} known, and no mirror of wrandelshofer/FastDoubleParser here`}`,
      may_change_tests_run: false,
    });
  if (d.sjsxp)
    deviations.push({
      what: 'dependency substituted',
      upstream: 'com.sun.xml.stream:sjsxp:1.0.2 from Maven Central (test scope)',
      faun:
        'a two-class stand-in (com.sun.xml.stream.ZephyrParserFactory / ZephyrWriterFactory) delegating every ' +
        "call to the JDK's built-in StAX implementation (newDefaultFactory(), which descends from SJSXP), " +
        `compiled for Java 11 and installed as com.sun.xml.stream:sjsxp:1.0.2; ${SJSXP_TEST} compiles and runs ` +
        'against it (no source of SJSXP 1.0.2 here, Debian ships none)',
      may_change_tests_run: false,
    });
  return { spec: s.spec, deviations };
}

/** jackson-dataformat-xml's stand-in POM: where it is, and what it declares. */
export const JACKSON_XML_STANDIN = {
  pom: '/opt/faun-java/jackson-dataformat-xml/pom.xml',
  standin:
    'compiler 3.10.1, resources 3.3.0, surefire 2.22.3, JUnit 4.13.2 + Jupiter/vintage 5.9.2, the Surefire ' +
    "includes (**/Test*.java, **/*Test.java) and excludes (…/xml/failing/*.java) of the project's POM",
};

/** Multi-SWE-bench's Maven repositories faun has an offline environment for (keys lowercased). */
const MAVEN: Record<string, MavenRepo> = {
  'fasterxml/jackson-core': {
    pom: '/opt/faun-java/jackson-core/pom.xml',
    specOf: jacksonCoreFor,
    // pr-980's scripts run one class of the `failing` folder, with `-am` (a no-op in a one-module build)
    perPr: {
      980: {
        upstream: `mvn clean test -Dsurefire.useFile=false -Dmaven.test.skip=false -Dtest=${PERF_968} -DfailIfNoTests=false -am`,
        flags: `-Dsurefire.useFile=false -Dtest=${PERF_968}`,
        dropped: '-am',
      },
    },
  },
  'fasterxml/jackson-dataformat-xml': {
    pom: JACKSON_XML_STANDIN.pom,
    specOf: jacksonXmlFor,
    standin: JACKSON_XML_STANDIN.standin,
    treeOnly: true,
  },
};

const GRADLE_WRAPPER =
  'its command is the Gradle wrapper (`./gradlew … test`), which downloads Gradle from services.gradle.org, ' +
  "not reachable offline; Debian's Gradle is 4.4.1";

/**
 * Why faun has no offline environment for these repositories of Multi-SWE-bench's published dataset files
 * (keys lowercased); any other repository without an entry in MAVEN is reported as not mapped.
 */
const NOT_BUILDABLE: Record<string, string> = {
  'google/gson':
    "Multi-SWE-bench's gson parser reads only Surefire ≤ 2.19's report lines (`Running X`, then `Tests run: … " +
    'Time elapsed: N sec`); Debian ships Surefire 2.22.3 alone, whose lines it does not match, so no stage would ' +
    'have a test result',
  'mockito/mockito': GRADLE_WRAPPER,
  'googlecontainertools/jib': GRADLE_WRAPPER,
};

/** Deviations every offline Maven run has (stand-in POM, Debian's repository and toolchain). */
export function mavenDeviations(pom: string, standin?: string): Deviation[] {
  return [
    {
      what: 'stand-in POM',
      upstream:
        "the project's pom.xml and its parent's plugins (version rewritten to a -SNAPSHOT by the image's prepare step)",
      faun: `${pom}: ${standin ?? "compiler 3.10.1, resources 3.3.0, surefire 2.22.3, JUnit 4.13.2 + Jupiter/vintage 5.9.2, Surefire excludes of the project's POM (**/failing/**)"}`,
      may_change_tests_run: true,
    },
    {
      what: 'offline Maven',
      upstream: 'mvn with Maven Central',
      faun: `${MVN_OFFLINE} (Debian's /usr/share/maven-repo)`,
      may_change_tests_run: false,
    },
    {
      what: 'clean',
      upstream: 'mvn clean test',
      faun: 'rm -rf target; mvn test (Debian ships no maven-clean-plugin)',
      may_change_tests_run: false,
    },
    {
      what: 'toolchain',
      upstream: 'Ubuntu 22.04: openjdk-8-jdk, maven',
      faun: 'Debian bookworm: OpenJDK 17 compiling with --release 8, Maven 3.8',
      may_change_tests_run: false,
    },
    {
      what: 'generated sources',
      upstream: "PackageVersion.java from its template by the replacer plugin, with the POM's version",
      faun: 'PackageVersion.java from its template by sed, with the stand-in POM’s version',
      may_change_tests_run: false,
    },
    {
      what: 'tree',
      upstream: 'a clone checked out at base.sha, after a warm-up build in the image',
      faun: 'the tree at base.sha as a fresh one-commit repository; no warm-up build',
      may_change_tests_run: false,
    },
  ];
}

/**
 * The plan for a row of `org/repo` PR `number`, given faun's environment specs and what it reads of the
 * row's base tree (null: the repository's spec as it is).
 */
export function planFor(
  org: string,
  repo: string,
  number: number,
  specs: readonly EnvSpec[],
  tree: BaseTree | null = null,
): Plan {
  const key = `${org}/${repo}`.toLowerCase();
  const m = MAVEN[key];
  if (!m)
    return {
      unsupported: `no offline environment for ${org}/${repo}: ${NOT_BUILDABLE[key] ?? "Multi-SWE-bench's command for it is not mapped to a faun spec"}`,
    };
  const own = m.specOf && tree ? m.specOf(tree) : null;
  if (own && 'unsupported' in own) return own;
  if (m.treeOnly && !own)
    return {
      unsupported: `no environment for ${org}/${repo} without its base's pom.xml (its environment follows it)`,
    };
  const found = own?.spec ?? specs.find((s) => s.name.toLowerCase() === key);
  if (!found) return { unsupported: `no environment spec for ${org}/${repo} in faun's specs` };
  // SWE-bench-java's one-run-per-test commands are not Multi-SWE-bench's: left out
  const { perTestCmd: _c, perTestPrelude: _p, ...base } = found;
  const pr = m.perPr?.[number];
  const upstream = pr?.upstream ?? `mvn clean test ${MVN_UPSTREAM_FLAGS}`;
  const command = `rm -rf target; ${MVN_OFFLINE} -f ${m.pom} test ${MVN_UPSTREAM_FLAGS}${pr ? ` ${pr.flags}` : ''} 2>&1`;
  const deviations = [...mavenDeviations(m.pom, m.standin), ...(own?.deviations ?? [])];
  if (pr?.dropped)
    deviations.push({
      what: 'changed flags',
      upstream: pr.dropped,
      faun: 'dropped (the stand-in POM is one module)',
      may_change_tests_run: false,
    });
  return {
    plan: {
      language: 'java',
      upstream_command: upstream,
      command,
      deviations,
      spec: { ...base, versions: null, testCmd: command },
    },
  };
}
