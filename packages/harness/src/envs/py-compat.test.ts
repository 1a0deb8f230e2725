import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASTROPY_COMPAT_PLUGIN, astropyDeprecationIgnores, py36CollectionsAbc } from './py-compat.ts';

const hasPython = Bun.spawnSync(['python3', '-c', 'pass']).exitCode === 0;
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
function temp(): string {
  const d = mkdtempSync(join(tmpdir(), 'faun-pycompat-'));
  dirs.push(d);
  return d;
}
const sh = (step: string) => expect(Bun.spawnSync(['sh', '-c', step]).exitCode).toBe(0);
const py = (code: string, env: Record<string, string> = {}) =>
  Bun.spawnSync(['python3', '-W', 'error', '-c', code], { env: { ...process.env, ...env }, stderr: 'pipe' });

describe.if(hasPython)('Python compatibility steps', () => {
  test('collections ABCs: the names exist on collections without a warning once the site dir is read', () => {
    const dist = temp();
    sh(py36CollectionsAbc(dist));
    const use = 'import collections; collections.MutableSequence.register(list); print(collections.Mapping)';
    // without the .pth: a DeprecationWarning (3.7-3.9, an error under -W error) or no such name (3.10+)
    expect(py(use).exitCode).not.toBe(0);
    const r = py(`import site; site.addsitedir(${JSON.stringify(dist)}); ${use}`);
    expect(r.stderr.toString()).toBe('');
    expect(r.stdout.toString()).toContain('collections.abc.Mapping');
  });

  test("astropy plugin: adds the messages to astropy's per-version ignore list and re-applies its filters", () => {
    const dist = temp();
    sh(astropyDeprecationIgnores(['tostring\\(\\) is deprecated'], dist));
    const fake = temp();
    mkdirSync(join(fake, 'astropy', 'tests'), { recursive: true });
    writeFileSync(join(fake, 'astropy', '__init__.py'), '');
    writeFileSync(join(fake, 'astropy', 'tests', '__init__.py'), '');
    writeFileSync(
      join(fake, 'astropy', 'tests', 'helper.py'),
      'calls = []\n_warnings_to_ignore_by_pyver = {(3, 5): {"x"}}\ndef treat_deprecations_as_exceptions():\n    calls.append(1)\n',
    );
    const r = py(
      `import sys, ${ASTROPY_COMPAT_PLUGIN} as p; p.pytest_configure(None)
from astropy.tests import helper as h
print(sorted(h._warnings_to_ignore_by_pyver[sys.version_info[:2]]), h._warnings_to_ignore_by_pyver[(3, 5)], h.calls)`,
      { PYTHONPATH: `${dist}:${fake}` },
    );
    expect(r.stderr.toString()).toBe('');
    expect(r.stdout.toString().trim()).toBe("['tostring\\\\(\\\\) is deprecated'] {'x'} [1]");
  });
});
