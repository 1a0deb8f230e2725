import { describe, expect, test } from 'bun:test';
import { cliInvocation, shellQuote } from './invocation.ts';

const base = {
  cwd: '/src/faun',
  env: {},
  which: () => null,
  realpath: (p: string) => p,
  repoRoot: '/src/faun',
};

describe('the command printed to resume a run', () => {
  test('`faun` only when the binary on PATH is the running CLI', () => {
    const o = { ...base, script: '/usr/local/bin/faun', which: () => '/usr/local/bin/faun' };
    expect(cliInvocation(o)).toBe('faun');
    // A symlinked binary resolves to the entry point.
    const links = (p: string) => (p === '/usr/local/bin/faun' ? '/src/faun/apps/cli/src/main.ts' : p);
    expect(
      cliInvocation({
        ...base,
        script: '/src/faun/apps/cli/src/main.ts',
        which: () => '/usr/local/bin/faun',
        realpath: links,
      }),
    ).toBe('faun');
  });

  test('`bun run faun` from the workspace root or when started that way', () => {
    expect(cliInvocation({ ...base, script: 'apps/cli/src/main.ts' })).toBe('bun run faun');
    expect(
      cliInvocation({
        ...base,
        cwd: '/src/faun/x',
        script: '/src/faun/apps/cli/src/main.ts',
        env: { npm_lifecycle_event: 'faun' },
      }),
    ).toBe('bun run faun');
    // node_modules/.bin is on PATH only inside `bun run`.
    const bin = '/src/faun/node_modules/.bin/faun';
    const viaBin = (p: string) => (p === bin ? '/src/faun/apps/cli/src/main.ts' : p);
    expect(
      cliInvocation({ ...base, script: 'apps/cli/src/main.ts', which: () => bin, realpath: viaBin }),
    ).toBe('bun run faun');
    // Another `faun` on PATH is not this checkout's CLI.
    expect(cliInvocation({ ...base, script: 'apps/cli/src/main.ts', which: () => '/opt/other/faun' })).toBe(
      'bun run faun',
    );
  });

  test('elsewhere: bun and the path of the entry point (relative below cwd, else absolute, quoted)', () => {
    expect(cliInvocation({ ...base, cwd: '/tmp/w', script: '/src/faun/apps/cli/src/main.ts' })).toBe(
      'bun /src/faun/apps/cli/src/main.ts',
    );
    expect(cliInvocation({ ...base, cwd: '/', script: '/src/faun/apps/cli/src/main.ts' })).toBe(
      'bun src/faun/apps/cli/src/main.ts',
    );
    expect(cliInvocation({ ...base, cwd: '/tmp', script: '/my dir/main.ts', repoRoot: '/my dir' })).toBe(
      "bun '/my dir/main.ts'",
    );
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
