/**
 * How Multi-SWE-bench runs each repository, and how faun runs it offline (pure). The upstream commands are
 * re-expressed from Multi-SWE-bench's per-repository definitions (multi_swe_bench/harness/repos/<lang>/
 * <org>/<repo>.py at the dataset's commit); every way faun's run differs from them is a {@link Deviation},
 * recorded per instance. A repository without an entry here is reported as one faun cannot build, with the
 * reason.
 */
import { ASSERTJ, type EnvSpec, jacksonCoreDeps, jacksonCoreSpec } from '@faun/harness';

/** What the plan reads from the row's base tree: its `pom.xml`. */
export interface BaseTree {
  pomXml: string;
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
  /** The spec for a tree whose `pom.xml` is this (when it depends on what the POM asks for), and its deviations. */
  specOf?: (tree: BaseTree) => { spec: EnvSpec; deviations: Deviation[] };
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
  'fasterxml/jackson-dataformat-xml':
    'its bases need jackson-databind / jackson-core 2.15 and 2.17, woodstox-core 6.2.7–6.6.1, stax2-api 4.2.x and ' +
    'test dependencies Debian does not ship (jackson-module-jakarta-xmlbind-annotations, jakarta.xml.bind-api ' +
    '3.0.1, sjsxp 1.0.2), none of them built from source yet (README, "Not run")',
};

/** Deviations every offline Maven run has (stand-in POM, Debian's repository and toolchain). */
export function mavenDeviations(pom: string): Deviation[] {
  return [
    {
      what: 'stand-in POM',
      upstream:
        "the project's pom.xml and its parent's plugins (version rewritten to a -SNAPSHOT by the image's prepare step)",
      faun: `${pom}: compiler 3.10.1, resources 3.3.0, surefire 2.22.3, JUnit 4.13.2 + Jupiter/vintage 5.9.2, Surefire excludes of the project's POM (**/failing/**)`,
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
  const found = own?.spec ?? specs.find((s) => s.name.toLowerCase() === key);
  if (!found) return { unsupported: `no environment spec for ${org}/${repo} in faun's specs` };
  // SWE-bench-java's one-run-per-test commands are not Multi-SWE-bench's: left out
  const { perTestCmd: _c, perTestPrelude: _p, ...base } = found;
  const pr = m.perPr?.[number];
  const upstream = pr?.upstream ?? `mvn clean test ${MVN_UPSTREAM_FLAGS}`;
  const command = `rm -rf target; ${MVN_OFFLINE} -f ${m.pom} test ${MVN_UPSTREAM_FLAGS}${pr ? ` ${pr.flags}` : ''} 2>&1`;
  const deviations = [...mavenDeviations(m.pom), ...(own?.deviations ?? [])];
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
