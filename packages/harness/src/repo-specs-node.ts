/**
 * Environment specs of real JavaScript / TypeScript repositories (Multi-SWE-bench's lists). The repo-env
 * layer installs the test toolchain the repository's lockfile names, pinned, from the npm registry into
 * /opt/faun-node/<name>/node_modules (builds may use the registry; tests never have a network); the
 * instance layer links it as the work tree's node_modules. Test commands are the ones Multi-SWE-bench's
 * instance class runs; the parser is its parse_log's port (parsers/select.ts).
 */
import type { EnvSpec } from './specs.ts';

/** The env step that installs `pkgs` (exact versions) under /opt/faun-node/<dir>. */
export function npmDeps(dir: string, pkgs: string[]): string {
  const root = `/opt/faun-node/${dir}`;
  return (
    `mkdir -p ${root} && cd ${root} && printf '{"name":"faun-deps","private":true}\\n' > package.json && ` +
    `npm install --no-audit --no-fund --no-update-notifier --legacy-peer-deps --loglevel=error ${[...pkgs].sort().join(' ')} && ` +
    'npm cache clean --force >/dev/null 2>&1 && test -d node_modules/.bin'
  );
}

/** The instance step that makes the env layer's modules the work tree's node_modules. */
export const linkDeps = (dir: string) =>
  `[ -e node_modules ] || ln -s /opt/faun-node/${dir}/node_modules node_modules`;

const NODE_ENV = { CI: 'true', NO_UPDATE_NOTIFIER: '1', npm_config_update_notifier: 'false' };

export const NODE_SPECS: EnvSpec[] = [
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
    testCmd: 'yarn test 2>&1',
    parser: 'msb-jest-files',
    env: NODE_ENV,
    specVersion: '1',
  },
];
