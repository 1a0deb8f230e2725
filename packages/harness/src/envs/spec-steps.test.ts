import { afterAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { debianEggVersion, debsFrom, pickRelease } from './spec-steps.ts';

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

const hasDpkg = Bun.spawnSync(['dpkg-query', '-W', 'bash']).exitCode === 0;
test.if(hasDpkg)(
  'debianEggVersion: a 0.0.0 egg-info gets the package version from dpkg (epoch and revision dropped)',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'faun-egg-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'Bash-0.0.0.egg-info'));
    writeFileSync(
      join(dir, 'Bash-0.0.0.egg-info', 'PKG-INFO'),
      'Metadata-Version: 1.2\nName: Bash\nVersion: 0.0.0\n',
    );
    // biome-ignore lint/suspicious/noTemplateCurlyInString: dpkg-query's own format field, not a template
    const want = Bun.spawnSync(['dpkg-query', '-W', '-f=${Version}', 'bash'])
      .stdout.toString()
      .replace(/^\d+:/, '')
      .replace(/-[^-]*$/, '');
    expect(Bun.spawnSync(['sh', '-c', debianEggVersion('bash', 'Bash', dir)]).exitCode).toBe(0);
    expect(readFileSync(join(dir, `Bash-${want}.egg-info`, 'PKG-INFO'), 'utf8')).toContain(
      `Version: ${want}\n`,
    );
    expect(existsSync(join(dir, 'Bash-0.0.0.egg-info'))).toBe(false);
    // nothing to fix: succeeds and changes nothing
    expect(Bun.spawnSync(['sh', '-c', debianEggVersion('bash', 'Nope', dir)]).exitCode).toBe(0);
  },
);
