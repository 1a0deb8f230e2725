import { expect, test } from 'bun:test';
import { CPP_SPECS } from '../envs/repo-specs-cpp.ts';
import { TEST_USER } from '../envs/sandbox-image.ts';
import { sandboxRunArgs, sandboxTmpfs, writableDirs } from './container-sandbox.ts';
import { DEFAULT_LIMITS } from './sandbox.ts';

test("a spec's writable folder is one more size-limited memory file system owned by the test user", () => {
  const tmpfs = sandboxTmpfs(256, '/testbed', ['/opt/faun-build']);
  expect(tmpfs).toContain(
    `/opt/faun-build:rw,exec,nosuid,nodev,size=256m,uid=${TEST_USER.uid},gid=${TEST_USER.gid},mode=0755`,
  );
  expect(tmpfs.map((t) => t.split(':')[0])).toEqual([
    '/testbed',
    TEST_USER.home,
    '/opt/faun-build',
    '/tmp',
    '/var/tmp',
  ]);
  const args = sandboxRunArgs('img', '/testbed', DEFAULT_LIMITS, {}, [], ['/opt/faun-build']);
  expect(args).toContain('--read-only');
  expect(args.filter((a) => a.startsWith('/opt/faun-build:'))).toHaveLength(1);
  // without one, nothing outside the usual places is writable
  expect(sandboxRunArgs('img', '/testbed', DEFAULT_LIMITS, {}).some((a) => a.startsWith('/opt'))).toBe(false);
});

test('writable folders are absolute, normalised and apart from the work tree, home and /tmp', () => {
  expect(writableDirs('/testbed', ['/opt/b', '/opt/a', '/opt/b'])).toEqual(['/opt/a', '/opt/b']);
  for (const bad of ['/', 'opt/build', '/opt/../etc', '/opt/./b', '/opt/b/', '/opt/b c', ''])
    expect(() => writableDirs('/testbed', [bad]), bad).toThrow('is not an absolute path');
  for (const bad of ['/testbed', '/testbed/build', '/tmp/x', '/var/tmp', TEST_USER.home, '/var'])
    expect(() => writableDirs('/testbed', [bad]), bad).toThrow('overlaps the work tree, home or /tmp');
});

test('the C++ specs build in /opt/faun-build at test time: it is writable in their sandboxes', () => {
  for (const s of CPP_SPECS) {
    expect(s.writable, s.name).toEqual(['/opt/faun-build']);
    expect(s.testCmd, s.name).toContain('cmake --build /opt/faun-build');
  }
});
