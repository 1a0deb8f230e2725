import { expect, test } from 'bun:test';
import { SWEBENCH_PARSERS } from '../parsers/select.ts';
import { testInstance } from '../run/test-instance.ts';
import {
  djangoModules,
  LANGUAGE_DEFAULTS,
  REPO_SPECS,
  specFor,
  specId,
  specLimits,
  testCommand,
  testFiles,
} from './specs.ts';

const inst = testInstance;

const tp = (...files: string[]) =>
  files.map((f) => `diff --git a/${f} b/${f}\n--- a/${f}\n+++ b/${f}\n@@ -1 +1 @@\n-a\n+b\n`).join('');

test('specFor: repository spec by version, bullseye for old versions, language default otherwise', () => {
  expect(specFor(inst({ repo: 'pytest-dev/pytest', version: '5.4' }))?.suite).toBe('bullseye');
  expect(specFor(inst({ repo: 'pytest-dev/pytest', version: '8.0' }))?.suite).toBeUndefined();
  expect(specFor(inst({ repo: 'django/django', version: '3.2' }))?.suite).toBe('bullseye');
  expect(specFor(inst({ repo: 'django/django', version: '5.0' }))?.parser).toBe('django');
  expect(specFor(inst({ language: 'go' }))?.name).toBe('default:go');
  expect(specFor(inst({ language: 'other' }))).toBeNull();
});

test('test command: data files dropped, django modules, row override wins', () => {
  expect(testFiles(tp('tests/test_a.py', 'tests/static/config.toml', 'tests/data.json'))).toEqual([
    'tests/test_a.py',
  ]);
  expect(djangoModules(['tests/model_fields/test_x.py', 'django/db/x.py'])).toEqual(['model_fields.test_x']);
  const dj = inst({ repo: 'django/django', version: '4.2', test_patch: tp('tests/admin_views/tests.py') });
  expect(testCommand(specFor(dj)!, dj)).toContain('--parallel 1 admin_views.tests');
  expect(testCommand(specFor(dj)!, { ...dj, test_cmd: 'make test' })).toBe('make test');
});

test('specId changes when the spec content changes', () => {
  const s = specFor(inst({ language: 'python' }))!;
  expect(specId(s)).toMatch(/^default:python@2\+[0-9a-f]{8}$/);
  expect(specId({ ...s, testCmd: `${s.testCmd} -x` })).not.toBe(specId(s));
});

test('pytest 7.x runs on bullseye (Python 3.9, as SWE-bench) with tomli unpacked from bookworm; 8.x on bookworm', () => {
  const p7 = specFor(inst({ repo: 'pytest-dev/pytest', version: '7.0' }))!;
  expect(p7.suite).toBe('bullseye');
  expect(p7.envSetup.join('\n')).toMatch(/bookworm main.*for p in python3-tomli;/);
  expect(specFor(inst({ repo: 'pytest-dev/pytest', version: '6.3' }))?.envSetup).toEqual([]);
  expect(specFor(inst({ repo: 'pytest-dev/pytest', version: '8.0' }))?.suite).toBeUndefined();
  // pytest's own tests rely on Python's default warning filters.
  expect(p7.env?.PYTHONWARNINGS).toBeUndefined();
});

test('requests: local httpbin on the hosts its tests name, a trusted local CA, the tarpit network', () => {
  for (const version of ['2.3', '2.27']) {
    const s = specFor(inst({ repo: 'psf/requests', version }))!;
    expect(s.network).toBe('tarpit');
    expect(s.envSetup.some((x) => x.includes('update-ca-certificates'))).toBe(true);
    expect(s.env?.REQUESTS_CA_BUNDLE).toBe('/etc/ssl/certs/ca-certificates.crt');
    expect(s.testCmd).toContain('HTTPBIN_URL=http://httpbin.org/');
    expect(s.localHosts).toEqual(expect.arrayContaining(['httpbin.org', 'www.google.co.uk']));
    expect(s.testCmd).not.toContain('/etc/hosts');
  }
  // The collections shim only where Python ≥ 3.10 needs it.
  const old = specFor(inst({ repo: 'psf/requests', version: '2.3' }))!;
  expect(old.suite).toBe('bullseye');
  expect(old.envSetup.some((x) => x.includes('faun_collections_compat'))).toBe(false);
  expect(
    specFor(inst({ repo: 'psf/requests', version: '2.27' }))!.envSetup.some((x) =>
      x.includes('faun_collections_compat'),
    ),
  ).toBe(true);
});

test('other Lite repositories: suite and parser per version, unknown versions fall back to the language default', () => {
  const pick = (repo: string, version: string) => specFor(inst({ repo, version }))!;
  expect(pick('sphinx-doc/sphinx', '3.5').suite).toBe('bullseye');
  expect(pick('sphinx-doc/sphinx', '3.5').envSetup.join(' ')).toMatch(
    /bookworm main.*for p in python3-sphinxcontrib.applehelp /,
  );
  expect(pick('sphinx-doc/sphinx', '5.0').suite).toBeUndefined();
  expect(pick('sphinx-doc/sphinx', '7.1').parser).toBe('pytest-v2');
  expect(pick('pydata/xarray', '0.12').suite).toBe('bullseye');
  expect(pick('mwaskom/seaborn', '0.12').parser).toBe('seaborn');
  // xarray's numbagg and pylint's pinned astroid come from their repositories at fixed commits; pylint
  // also gets the newest astroid under the caps its base commits set (2.9.3 for 2.13, 2.11.7 for 2.15),
  // chosen per instance as pip install -e . would.
  expect(pick('pydata/xarray', '0.12').sources?.map((x) => x.repo)).toEqual(['numbagg/numbagg']);
  const astroid = (v: string) => pick('pylint-dev/pylint', v).sources?.map((x) => `${x.repo}@${x.commit}`);
  expect(astroid('2.13')).toEqual([
    'pylint-dev/astroid@36b81ead6dcecde342c696eab3089267acbe4ff3',
    'pylint-dev/astroid@d3449531aa5bcefb47cbb55ac695be5ed3dd635b',
  ]);
  expect(astroid('2.14')).toEqual(['pylint-dev/astroid@80883503e1a2505ef54954a2dac16278e7e19e58']);
  expect(astroid('2.15')).toEqual([
    'pylint-dev/astroid@8bdec591f228e7db6a0be66b6ca814227ff50001',
    'pylint-dev/astroid@502ccf48834b6f7bc1bb1b9437554d46c5584a0c',
  ]);
  expect(pick('pylint-dev/pylint', '2.14').install).toEqual([]);
  expect(pick('pylint-dev/pylint', '2.15').install[0]).toContain(
    'python3 - astroid 2.12.13 /usr/lib/python3/dist-packages/faun-astroid.pth 2.11.7=/opt/faun-src/pylint-dev+astroid-2.11.7 2.12.13=/opt/faun-src/pylint-dev+astroid-2.12.13',
  );
  for (const v of ['2.13', '2.14', '2.15']) {
    expect(pick('pylint-dev/pylint', v).suite).toBe('bullseye');
    expect(pick('pylint-dev/pylint', v).apt).not.toContain('python3-astroid');
  }
  expect(pick('pylint-dev/pylint', '2.15').envSetup.at(-1)).toBe(
    'echo /opt/faun-src/pylint-dev+astroid-2.12.13 > /usr/lib/python3/dist-packages/faun-astroid.pth',
  );
  expect(pick('pylint-dev/pylint', '2.16').name).toBe('default:python');
  // pylint's needs_two_cores tests: the sandbox gets 2 CPUs; other specs keep the limit given.
  const lim = { cpus: 1, memoryMb: 2048 };
  expect(specLimits(lim, pick('pylint-dev/pylint', '2.15'))).toEqual({ cpus: 2, memoryMb: 2048 });
  expect(specLimits({ cpus: 4, memoryMb: 1 }, pick('pylint-dev/pylint', '2.15')).cpus).toBe(4);
  expect(specLimits(lim, pick('pydata/xarray', '0.12'))).toBe(lim);
  expect(pick('astropy/astropy', '5.1').preTest?.[0]).toContain('build_ext --inplace');
  // The IERS-B stand-in comes before the build, and only where the code names that file.
  const a51 = pick('astropy/astropy', '5.1').install;
  expect(a51[0]).toContain('! grep -qs eopc04.1962-now astropy/utils/iers/iers.py || [ -e $f ] || : > $f');
  expect(a51[1]).toContain('build_ext --inplace');
  // astropy 1.3: bullseye, astropy_helpers copied into the tree before the offline build.
  const a13 = pick('astropy/astropy', '1.3');
  expect(a13.suite).toBe('bullseye');
  expect(a13.sources?.[0]?.repo).toBe('astropy/astropy-helpers');
  expect(a13.install[0]).toContain('cp -a /opt/faun-src/astropy+astropy-helpers astropy_helpers');
  expect(a13.install[1]).toContain('--offline --no-git');
  expect(pick('mwaskom/seaborn', '0.9').name).toBe('default:python');
  expect(pick('matplotlib/matplotlib', '3.5').swebench?.notRunHere).toContain('500 MB');
  expect(pick('scikit-learn/scikit-learn', '0.22').swebench?.notRunHere).toContain('500 MB');
});

test('every repository spec records how it differs from SWE-bench, and versions never overlap within a repository', () => {
  const seen = new Map<string, string>();
  for (const s of REPO_SPECS) {
    if (
      [
        'mwaskom/seaborn',
        'pydata/xarray',
        'pylint-dev/pylint',
        'sphinx-doc/sphinx',
        'astropy/astropy',
      ].includes(s.name)
    )
      expect(s.swebench?.differs.length).toBeGreaterThan(0);
    for (const v of s.versions ?? []) {
      const key = `${s.name}@${v}`;
      expect(seen.get(key) ?? null).toBeNull();
      seen.set(key, s.suite ?? 'bookworm');
    }
  }
});

test("Python specs run pytest in SWE-bench's -rA form (no -v) and read logs with SWE-bench's parser", () => {
  const pythonSpecs = [LANGUAGE_DEFAULTS.python!, ...REPO_SPECS.filter((s) => s.toolchain === 'python')];
  for (const s of pythonSpecs) {
    if (s.testCmd.includes('pytest')) {
      expect(s.testCmd).toContain(' -rA');
      expect(s.testCmd).not.toMatch(/ -v\b/);
    }
    const ref = SWEBENCH_PARSERS[s.name];
    if (ref) expect(`${s.name}: ${s.parser}`).toBe(`${s.name}: ${ref}`);
  }
  expect(specFor(inst({ repo: 'psf/requests', version: '2.27' }))?.parser).toBe('pytest-options');
});
