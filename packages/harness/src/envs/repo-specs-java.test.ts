import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import { testInstance } from '../run/test-instance.ts';
import { envDockerfile } from './docker-images.ts';
import {
  ASSERTJ,
  assertjStep,
  FASTDOUBLEPARSER_COMMITS,
  fastDoubleParserStep,
  JAVA_SPECS,
  jacksonCoreDeps,
  jacksonCoreSpec,
  jacksonCoreUpstreamStep,
  standinPom,
} from './repo-specs-java.ts';
import { writeFileStep } from './spec-steps.ts';
import { versionForPr } from './spec-versions.ts';
import { installSteps, javaTestClasses, specFor, testCommand } from './specs.ts';

const inst = (over: Partial<ExecutionInstance>): ExecutionInstance =>
  testInstance({ language: 'java', ...over });

const POM_BASE = {
  groupId: 'g',
  artifactId: 'a',
  version: '1.0',
  release: '8',
  excludes: ['**/failing/**/*.java'],
};

test('stand-in POM: the work tree as sources, Debian plugin versions, the project excludes', () => {
  const pom = standinPom({ ...POM_BASE, testDeps: ['org.hamcrest:hamcrest:2.2'] });
  expect(pom).toContain('<sourceDirectory>/testbed/src/main/java</sourceDirectory>');
  expect(pom).toContain('<testSourceDirectory>/testbed/src/test/java</testSourceDirectory>');
  expect(pom).toContain('<artifactId>maven-surefire-plugin</artifactId><version>2.22.3</version>');
  expect(pom).toContain('<artifactId>maven-compiler-plugin</artifactId><version>3.10.1</version>');
  expect(pom).toContain('<exclude>**/failing/**/*.java</exclude>');
  expect(pom).toContain('<artifactId>hamcrest</artifactId><version>2.2</version>');
  const step = writeFileStep('/opt/p/pom.xml', pom);
  const b64 = /echo (\S+) \| base64 -d > \/opt\/p\/pom\.xml$/.exec(step)?.[1];
  expect(Buffer.from(b64 ?? '', 'base64').toString()).toBe(pom);
});

test('jackson-core: the env layer writes the POM, the instance layer generates PackageVersion.java', () => {
  const s = JAVA_SPECS.find((x) => x.name === 'FasterXML/jackson-core')!;
  expect(envDockerfile(s)).toContain('base64 -d > /opt/faun-java/jackson-core/pom.xml');
  const steps = installSteps(s, inst({ repo: s.name, language: 'java', version: '2.14' }));
  expect(steps.join('\n')).toContain('PackageVersion.java; [ ! -f $f.in ]');
  expect(s.testCmd).toContain('-f /opt/faun-java/jackson-core/pom.xml');
});

test('stand-in POM: compile-scoped Debian dependencies, test sources left out of compilation and runs', () => {
  const pom = standinPom({
    ...POM_BASE,
    deps: ['com.x:core:2.14.1'],
    testExcludes: ['com/x/NeedsJolTest.java'],
  });
  expect(pom).toContain('<artifactId>core</artifactId><version>2.14.1</version><scope>compile</scope>');
  expect(pom).toContain('<testExcludes><testExclude>com/x/NeedsJolTest.java</testExclude></testExcludes>');
  expect(pom).toContain('<exclude>**/failing/**/*.java</exclude><exclude>com/x/NeedsJolTest.java</exclude>');
  // Without them the POM is the one jackson-core's image was built with.
  const plain = standinPom({ ...POM_BASE, excludes: [] });
  expect(plain).not.toContain('testExclude');
  expect(plain).not.toContain('<scope>compile</scope>');
});

test('jackson-databind 2.14: its PR range, upstream jackson-core, its PackageVersion.java', () => {
  expect(versionForPr('FasterXML/jackson-databind', 3716)).toBe('2.14');
  expect(versionForPr('fasterxml/jackson-databind', 4121)).toBeNull();
  const row = inst({ repo: 'FasterXML/jackson-databind', language: 'java', version: '2.14' });
  const s = specFor(row)!;
  expect(s.name).toBe('FasterXML/jackson-databind');
  // Debian's binary jackson-core has 2.15's read constraints backported (another API): upstream's, built
  // from the source package, is used.
  expect(s.apt).not.toContain('libjackson2-core-java');
  expect(s.envSetup[0]).toBe(jacksonCoreUpstreamStep('2.14.1'));
  expect(s.envSetup[0]).toContain('apt-get source --download-only jackson-core');
  expect(s.envSetup[0]).toContain('tar xf jackson-core_2.14.1.orig.tar.*');
  expect(s.envSetup[0]).toContain('jackson-core/2.14.1-upstream/jackson-core-2.14.1-upstream.jar');
  const pom = Buffer.from(/echo (\S+) \| base64 -d/.exec(envDockerfile(s))?.[1] ?? '', 'base64').toString();
  expect(pom).toContain(
    '<artifactId>jackson-core</artifactId><version>2.14.1-upstream</version><scope>compile</scope>',
  );
  expect(pom).toContain('<testExclude>com/fasterxml/jackson/databind/MapperFootprintTest.java</testExclude>');
  expect(pom).toContain('<artifactId>mockito-core</artifactId><version>2.23.0</version><scope>test</scope>');
  const step = installSteps(s, row).join('\n');
  expect(step).toContain('f=src/main/java/com/fasterxml/jackson/databind/cfg/PackageVersion.java;');
  expect(step).toContain('s/@package@/com.fasterxml.jackson.databind.cfg/');
  expect(s.testCmd).toContain('-f /opt/faun-java/jackson-databind/pom.xml');
});

test('jackson-databind runs the touched classes the stage has, and only compiles when it has none', () => {
  const s = JAVA_SPECS.find((x) => x.name === 'FasterXML/jackson-databind')!;
  const dir = mkdtempSync(join(tmpdir(), 'faun-mvn-'));
  try {
    mkdirSync(join(dir, 'bin'));
    mkdirSync(join(dir, 'src/test/java/com/x'), { recursive: true });
    writeFileSync(join(dir, 'src/test/java/com/x/OldTest.java'), 'class OldTest {}\n');
    // A stand-in mvn that prints its goal and -Dtest.
    writeFileSync(
      join(dir, 'bin/mvn'),
      '#!/bin/sh\nfor a in "$@"; do case "$a" in test|test-compile|-Dtest=*) echo "$a";; esac; done\n',
    );
    Bun.spawnSync(['chmod', '+x', join(dir, 'bin/mvn')]);
    const tp = (f: string) => `diff --git a/${f} b/${f}\n--- a/${f}\n+++ b/${f}\n@@ -1 +1 @@\n-a\n+b\n`;
    const run = (files: string[]) => {
      const row = inst({
        repo: s.name,
        language: 'java',
        version: '2.14',
        test_patch: files.map(tp).join(''),
      });
      const p = Bun.spawnSync(['bash', '-c', `set -uo pipefail; ${testCommand(s, row)}`], {
        cwd: dir,
        env: { PATH: `${join(dir, 'bin')}:${process.env.PATH}` },
      });
      return p.stdout.toString();
    };
    // the test patch adds NewTest (not there before it is applied) and changes OldTest
    expect(run(['src/test/java/com/x/NewTest.java', 'src/test/java/com/x/OldTest.java'])).toBe(
      'test\n-Dtest=OldTest\n',
    );
    expect(run(['src/test/java/com/x/NewTest.java'])).toBe('test-compile\n');
    writeFileSync(join(dir, 'src/test/java/com/x/NewTest.java'), 'class NewTest {}\n');
    expect(run(['src/test/java/com/x/NewTest.java', 'src/test/java/com/x/OldTest.java'])).toBe(
      'test\n-Dtest=NewTest,OldTest\n',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('{test_classes}: the Java test classes the test patch touches, as a Surefire -Dtest list', () => {
  expect(
    javaTestClasses([
      'src/test/java/com/x/read/FooTest.java',
      'src/test/java/com/x/BarTest.java',
      'src/test/resources/data.json',
      'src/main/java/com/x/Main.java',
      'gson/src/test/java/com/y/FooTest.java',
    ]),
  ).toEqual(['BarTest', 'FooTest']);
  const s = JAVA_SPECS.find((x) => x.name === 'FasterXML/jackson-core')!;
  const tp = (f: string) => `diff --git a/${f} b/${f}\n--- a/${f}\n+++ b/${f}\n@@ -1 +1 @@\n-a\n+b\n`;
  const cmd = testCommand(
    s,
    inst({
      repo: s.name,
      language: 'java',
      test_patch: tp('src/test/java/a/ATest.java') + tp('src/test/java/b/BTest.java'),
    }),
  );
  expect(cmd).toContain('-Dtest=ATest,BTest ');
});

test('jackson-core 2.15+: fastdoubleparser and AssertJ read from its POM, put in the env layer', () => {
  const pom = (fdp: string, assertj: boolean) =>
    `<project><dependencies><dependency><groupId>ch.randelshofer</groupId><artifactId>fastdoubleparser</artifactId>\n` +
    `      <version>${fdp}</version></dependency>${assertj ? '<dependency><artifactId>assertj-core</artifactId></dependency>' : ''}</dependencies></project>`;
  expect(jacksonCoreDeps(pom('0.9.0', true))).toEqual({ fastdoubleparser: '0.9.0', assertj: true });
  expect(jacksonCoreDeps('<project><artifactId>junit</artifactId></project>')).toEqual({
    fastdoubleparser: null,
    assertj: false,
  });
  const spec = jacksonCoreSpec({ fastdoubleparser: '1.0.0', assertj: true });
  expect(spec.sources).toEqual([
    {
      repo: 'wrandelshofer/FastDoubleParser',
      commit: FASTDOUBLEPARSER_COMMITS['1.0.0']!,
      dest: '/opt/faun-src/fastdoubleparser',
    },
    { repo: 'assertj/assertj', commit: ASSERTJ.commit, dest: '/opt/faun-src/assertj' },
  ]);
  expect(spec.envSetup[0]).toBe(fastDoubleParserStep('1.0.0'));
  expect(spec.envSetup[0]).toContain('/usr/share/maven-repo/ch/randelshofer/fastdoubleparser/1.0.0');
  expect(spec.envSetup[1]).toBe(assertjStep());
  const written = Buffer.from(/echo (\S+) \| base64 -d/.exec(spec.envSetup[2]!)![1]!, 'base64').toString();
  expect(written).toContain(
    '<artifactId>fastdoubleparser</artifactId><version>1.0.0</version><scope>compile',
  );
  expect(written).toContain('<artifactId>assertj-core</artifactId><version>3.24.2</version><scope>test');
  // Debian's AssertJ (3.14.0, without the API the tests use) is not installed; its jar's dependencies are
  expect(spec.apt).not.toContain('libassertj-core-java');
  expect(spec.apt).toContain('libbyte-buddy-java');
  // fastdoubleparser only: no AssertJ built
  const fdpOnly = jacksonCoreSpec({ fastdoubleparser: '0.8.0', assertj: false });
  expect(fdpOnly.sources?.map((x) => x.repo)).toEqual(['wrandelshofer/FastDoubleParser']);
  expect(fdpOnly.envSetup.some((x) => x.includes('assertj'))).toBe(false);
  // without extra dependencies: the repository's own spec
  expect(jacksonCoreSpec({ fastdoubleparser: null, assertj: false })).toEqual(JAVA_SPECS[0]!);
  expect(() => jacksonCoreSpec({ fastdoubleparser: '9.9.9', assertj: false })).toThrow('9.9.9');
});
