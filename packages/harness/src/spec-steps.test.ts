import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { debsFrom, pickRelease } from './spec-steps.ts';

test('debsFrom: adds the suite, downloads each package from it (missing ones skipped), unpacks, removes the list', () => {
  const s = debsFrom('bookworm', ['python3-tomli', 'python3-x']);
  expect(s).toContain('bookworm main" > /etc/apt/sources.list.d/faun-bookworm.list');
  expect(s).toContain('for p in python3-tomli python3-x; do apt-get download "$p/bookworm" || echo');
  expect(s).toContain('dpkg -x "$d" /');
  expect(s.indexOf('dpkg -x')).toBeLessThan(
    s.indexOf('rm -rf /tmp/faun-debs /etc/apt/sources.list.d/faun-bookworm.list'),
  );
  expect(() => debsFrom('trixie', [])).toThrow('no packages');
});

const hasPackaging = Bun.spawnSync(['python3', '-c', 'import packaging.specifiers']).exitCode === 0;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs the pickRelease step in a work tree holding `files`; returns the folder it chose. */
function pick(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'faun-pick-'));
  dirs.push(dir);
  for (const [f, text] of Object.entries(files)) writeFileSync(join(dir, f), text);
  const releases = { '2.9.3': '/src/a-2.9.3', '2.11.7': '/src/a-2.11.7', '2.12.13': '/src/a-2.12.13' };
  const step = pickRelease('astroid', '2.12.13', join(dir, 'out.pth'), releases);
  const r = Bun.spawnSync(['sh', '-c', step], { cwd: dir, stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  return readFileSync(join(dir, 'out.pth'), 'utf8').trim();
}

describe.if(hasPackaging)('pickRelease (what pip install -e . leaves of a pinned dependency)', () => {
  test('the pin is kept where the project allows it', () => {
    expect(pick({ 'pyproject.toml': 'dependencies = [\n    "astroid>=2.12.2,<=2.14.0-dev0",\n]\n' })).toBe(
      '/src/a-2.12.13',
    );
  });
  test('a cap below the pin gives the newest release under the cap', () => {
    const cfg = (req: string) =>
      `[options]\ninstall_requires =\n    dill>=0.2\n    # astroid is pinned in requirements_test_min.txt\n    ${req}\n[isort]\nknown_third_party = platformdirs, astroid, sphinx\n`;
    expect(pick({ 'setup.cfg': cfg('astroid>=2.11.6,<=2.12.0-dev0') })).toBe('/src/a-2.11.7');
    expect(pick({ 'setup.cfg': cfg('astroid>=2.9.2,<=2.10.0-dev0') })).toBe('/src/a-2.9.3');
  });
  test('no requirement at all keeps the pin; a bad pin is refused when the step is made', () => {
    expect(pick({ 'setup.py': 'setup(name="x")\n' })).toBe('/src/a-2.12.13');
    expect(() => pickRelease('astroid', '9.9', '/x.pth', { '1.0': '/a' })).toThrow('not among the releases');
  });
});
