/**
 * Environment specs for the other SWE-bench Lite repositories (seaborn, xarray, pylint, sphinx, astropy,
 * matplotlib, scikit-learn), per version, from Debian's packages only. `swebench` records SWE-bench's
 * Python and what differs from its pins (`MAP_REPO_VERSION_TO_SPECS`, SWE-bench v4.1.0
 * `swebench/harness/constants/python.py`); measured results are in packages/harness/README.md.
 */
import { ASTROPY_COMPAT_PLUGIN, astropyDeprecationIgnores, py36CollectionsAbc } from './py-compat.ts';
import { debianEggVersion, debsFrom, PY_DIST, pickRelease } from './spec-steps.ts';
import type { EnvSource, EnvSpec } from './specs.ts';

/**
 * A pure-Python dependency from its repository's tree at `commit` (Debian has no version that fits),
 * put on every interpreter's path by a .pth file: the source and the step that makes it importable.
 */
function pySource(repo: string, commit: string): { source: EnvSource; step: string } {
  const dest = `/opt/faun-src/${repo.replace('/', '+')}`;
  const pth = `${PY_DIST}/faun-${repo.split('/')[1]}.pth`;
  return { source: { repo, commit, dest }, step: `echo ${dest} > ${pth}` };
}

const BASE_ENV = { PYTHONDONTWRITEBYTECODE: '1', MPLBACKEND: 'Agg' };
const PYTEST = 'python3 -m pytest -rA -p no:cacheprovider';
const NOT_FETCHABLE = 'not run here: the mirror is larger than the 500 MB fetch limit';

const SEABORN: EnvSpec = {
  name: 'mwaskom/seaborn',
  versions: ['0.11', '0.12', '0.13', '0.14'],
  toolchain: 'python',
  apt: ['python3-numpy', 'python3-pandas', 'python3-matplotlib', 'python3-scipy', 'python3-statsmodels'],
  envSetup: [],
  install: [],
  testCmd: `PYTHONPATH=/testbed python3 -m pytest --no-header -rA -p no:cacheprovider {test_files}`,
  parser: 'seaborn',
  env: BASE_ENV,
  specVersion: '1',
  swebench: {
    python: '3.9',
    differs: [
      'python 3.9 → 3.11 (bookworm)',
      'numpy 1.25.2 → 1.24.2',
      'pandas 2.0.0 (1.3.5 for 0.11) → 1.5.3',
      'matplotlib 3.7.2 → 3.6.3',
      'scipy 1.11.2 → 1.10.1',
      'pip install -e . → source tree on PYTHONPATH',
    ],
  },
};

/**
 * xarray "0.12" covers base commits from 2019 to 2022. SWE-bench runs them with numpy 1.23 / pandas 1.5;
 * bullseye's numpy 1.19 / pandas 1.1 / dask 2021.01 are of the code's own time (numpy 1.24 removed the
 * `np.bool`-style aliases that code of 2019 uses).
 */
/** numbagg 0.1.0 (not in Debian; xarray's rolling_exp uses it), on bullseye's numba 0.52. */
const NUMBAGG = pySource('numbagg/numbagg', '7bc2ebd686c8ef782a4839ae1d58abe4961b6121');
const XARRAY: EnvSpec = {
  name: 'pydata/xarray',
  versions: ['0.12', '0.18', '0.19', '0.20', '2022.03', '2022.06', '2022.09', '2023.07', '2024.05'],
  toolchain: 'python',
  suite: 'bullseye',
  apt: [
    'python3-numpy',
    'python3-pandas',
    'python3-scipy',
    'python3-dask',
    'python3-toolz',
    'python3-netcdf4',
    'python3-cftime',
    'python3-bottleneck',
    'python3-matplotlib',
    'python3-packaging',
    'python3-setuptools',
    'python3-sparse',
    'python3-pint',
    'python3-numba',
    'python3-zarr',
    'python3-h5netcdf',
  ],
  sources: [NUMBAGG.source],
  // bullseye's pint 0.16.1 says 0.0.0 in its metadata: `requires_pint_0_15` tests would skip
  envSetup: [NUMBAGG.step, debianEggVersion('python3-pint', 'Pint')],
  install: [],
  testCmd: `PYTHONPATH=/testbed ${PYTEST} {test_files}`,
  parser: 'pytest',
  env: BASE_ENV,
  specVersion: '1',
  swebench: {
    python: '3.10',
    differs: [
      'python 3.10 → 3.9 (bullseye)',
      'numpy 1.23.0 → 1.19.5',
      'pandas 1.5.3 → 1.1.5',
      'scipy 1.11.1 → 1.6.0',
      'dask 2022.8.1 → 2021.01.0',
      'pytest 7.4.0 → 6.0.2',
      'sparse, pint (its metadata version 0.0.0 corrected to 0.16.1), numba, zarr, h5netcdf from bullseye; numbagg → 0.1.0 from its repository (not in Debian)',
      'the rest of ci/requirements/environment.yml (cfgrib, iris, pseudonetcdf, rasterio, …) absent: those tests skip',
    ],
  },
};

/** astroid releases by tag: the commit of each tag in pylint-dev/astroid. */
const ASTROID: Record<string, string> = {
  '2.9.3': 'd3449531aa5bcefb47cbb55ac695be5ed3dd635b',
  '2.11.3': '36b81ead6dcecde342c696eab3089267acbe4ff3',
  '2.11.6': '80883503e1a2505ef54954a2dac16278e7e19e58',
  '2.11.7': '502ccf48834b6f7bc1bb1b9437554d46c5584a0c',
  '2.12.13': '8bdec591f228e7db6a0be66b6ca814227ff50001',
};
/**
 * pylint pins astroid exactly for its tests (requirements_test_min.txt at the environment commit:
 * 2.11.3 for 2.13, 2.11.6 for 2.14, 2.12.13 for 2.15) and Debian has none of those (bullseye 2.5.1,
 * bookworm 2.14.2): astroid comes from its repository at that tag. SWE-bench then runs
 * `pip install -e .` at the base commit, which replaces the pin with the newest release the base
 * commit's own `install_requires` allows when the pin is outside it (a 2.15 base commit with
 * `astroid>=2.11.6,<=2.12.0-dev0` gets 2.11.7; a 2.13 one with `<=2.10.0-dev0` gets 2.9.3): the other
 * releases are those newest ones, and the instance step picks as pip does (`pickRelease`). Python 3.9
 * as in SWE-bench (bullseye); pytest ~= 7 and the newer pure-Python dependencies are bookworm's, unpacked.
 */
const PYLINT_ASTROID: Record<string, { pinned: string; others: string[] }> = {
  '2.13': { pinned: '2.11.3', others: ['2.9.3'] },
  '2.14': { pinned: '2.11.6', others: [] },
  '2.15': { pinned: '2.12.13', others: ['2.11.7'] },
};
const ASTROID_PTH = `${PY_DIST}/faun-astroid.pth`;
function pylint(version: string): EnvSpec {
  const { pinned, others } = PYLINT_ASTROID[version]!;
  const releases = Object.fromEntries(
    [pinned, ...others].map((v) => [v, `/opt/faun-src/pylint-dev+astroid-${v}`]),
  );
  const sources = Object.entries(releases).map(([v, dest]) => ({
    repo: 'pylint-dev/astroid',
    commit: ASTROID[v]!,
    dest,
  }));
  return {
    name: 'pylint-dev/pylint',
    versions: [version],
    toolchain: 'python',
    suite: 'bullseye',
    apt: [
      'python3-dill',
      'python3-isort',
      'python3-mccabe',
      'python3-lazy-object-proxy',
      'python3-wrapt',
      'python3-py',
      'python3-pluggy',
      'python3-iniconfig',
      'python3-attr',
      'python3-packaging',
      'python3-git',
      'python3-enchant',
      'python3-setuptools',
    ],
    sources,
    envSetup: [
      debsFrom('bookworm', [
        'python3-pytest',
        'python3-exceptiongroup',
        'python3-tomli',
        'python3-tomlkit',
        'python3-platformdirs',
        'python3-typing-extensions',
      ]),
      `echo ${releases[pinned]} > ${ASTROID_PTH}`,
    ],
    install: others.length ? [pickRelease('astroid', pinned, ASTROID_PTH, releases)] : [],
    testCmd: `PYTHONPATH=/testbed ${PYTEST} {test_files}`,
    parser: 'pytest-options',
    // The needs_two_cores tests (parallel linting) skip on one CPU.
    minCpus: 2,
    env: { PYTHONDONTWRITEBYTECODE: '1' },
    specVersion: '1',
    swebench: {
      python: '3.9',
      differs: [
        'python 3.9 (bullseye 3.9.2)',
        `astroid ${pinned} from its repository (the pinned version; Debian has 2.5.1 and 2.14.2)${
          others.length
            ? `, or ${others.join('/')} where the base commit's install_requires excludes it, as pip install -e . does`
            : ''
        }`,
        'pytest 7.2.1, tomli, tomlkit, platformdirs, typing-extensions from bookworm (unpacked)',
        'pytest-benchmark, pytest-timeout, pytest-xdist of requirements_test.txt absent',
        'sandbox CPU limit 2 (SWE-bench sets none; the needs_two_cores tests skip on 1)',
      ],
    },
  };
}
const PYLINT = Object.keys(PYLINT_ASTROID).map(pylint);

/** Sphinx's tox.ini runs pytest with these warning filters (SWE-bench: `tox --current-env -epy39`). */
const SPHINX_WARNINGS =
  'all,ignore::ImportWarning:importlib._bootstrap_external,ignore::DeprecationWarning:site,ignore::DeprecationWarning:distutils';
const SPHINX_DEPS = [
  'python3-docutils',
  'python3-jinja2',
  'python3-markupsafe',
  'python3-pygments',
  'python3-babel',
  'python3-alabaster',
  'python3-snowballstemmer',
  'python3-imagesize',
  'python3-requests',
  'python3-packaging',
  'python3-html5lib',
  'python3-sphinxcontrib.devhelp',
  'python3-sphinxcontrib.qthelp',
  'python3-sphinxcontrib.serializinghtml',
  'python3-typed-ast',
  'graphviz',
  'texinfo',
];
const SPHINX_BASE: Omit<EnvSpec, 'versions' | 'suite' | 'swebench'> = {
  name: 'sphinx-doc/sphinx',
  toolchain: 'python',
  apt: SPHINX_DEPS,
  envSetup: [],
  install: [],
  testCmd: `PYTHONWARNINGS='${SPHINX_WARNINGS}' PYTHONPATH=/testbed python3 -m pytest -rA --durations 25 -p no:cacheprovider {test_files}`,
  parser: 'pytest-v2',
  env: { PYTHONDONTWRITEBYTECODE: '1' },
  specVersion: '1',
};

/** Sphinx's help builders, split from it into packages of their own (bookworm's, for Sphinx ≥ 3). */
const SPHINXCONTRIB_HELP = [
  'python3-sphinxcontrib.applehelp',
  'python3-sphinxcontrib.htmlhelp',
  'python3-sphinxcontrib.jsmath',
];

/**
 * Sphinx 3.x–4.4 (SWE-bench pins Jinja2 < 3.0, markupsafe ≤ 2.0.1): bullseye has Jinja2 2.11 and
 * markupsafe 1.1; the builtin extensions it lacks (applehelp, htmlhelp, jsmath) come from bookworm.
 */
const SPHINX_3: EnvSpec = {
  ...SPHINX_BASE,
  versions: ['3.0', '3.1', '3.2', '3.3', '3.4', '3.5', '4.0', '4.1', '4.2', '4.3', '4.4'],
  suite: 'bullseye',
  envSetup: [debsFrom('bookworm', SPHINXCONTRIB_HELP)],
  swebench: {
    python: '3.9',
    differs: [
      'python 3.9 (bullseye 3.9.2)',
      'Jinja2 < 3.0 → 2.11.3; markupsafe ≤ 2.0.1 → 1.1.1; docutils → 0.16',
      'sphinxcontrib-applehelp/htmlhelp/jsmath → bookworm 1.0.2/2.0.0/1.0.1 (unpacked)',
      'tox --current-env -epy39 -v -- → the pytest command of its tox.ini, run directly',
    ],
  },
};

const SPHINX_5: EnvSpec = {
  ...SPHINX_BASE,
  versions: ['4.5', '5.0', '5.1', '5.2', '5.3', '6.0', '6.2', '7.0', '7.1', '7.2', '7.3', '7.4'],
  apt: [...SPHINX_DEPS, ...SPHINXCONTRIB_HELP],
  swebench: {
    python: '3.9',
    differs: [
      'python 3.9 → 3.11 (bookworm)',
      'docutils → 0.19 (Sphinx 5.0/5.1 ask for < 0.19)',
      'tox --current-env -epy39 -v -- → the pytest command of its tox.ini, run directly',
    ],
  },
};

/**
 * astropy's C extensions (cfitsio, wcslib, erfa…) are most of its build: compiled unoptimised and without
 * debug information (these flags come after Python's own -O2 -g), the in-place build takes a fraction of
 * the time; the tests exercise the same code.
 */
const ASTROPY_CFLAGS = '-O0 -g0';
const IERS_B_STANDIN =
  'f=astropy/utils/iers/data/eopc04.1962-now; ! grep -qs eopc04.1962-now astropy/utils/iers/iers.py || [ -e $f ] || : > $f';

/**
 * astropy 4.3–5.2: C and Cython extensions are built in place at install, and again after the model
 * patch (SWE-bench re-runs `pip install -e .` in its eval script).
 */
const ASTROPY: EnvSpec = {
  name: 'astropy/astropy',
  versions: ['4.1', '4.2', '4.3', '5.0', '5.1', '5.2', 'v5.3'],
  toolchain: 'python',
  apt: [
    'python3-dev',
    'gcc',
    'cython3',
    'python3-numpy',
    'python3-erfa',
    'python3-extension-helpers',
    'python3-setuptools-scm',
    'python3-jinja2',
    'python3-yaml',
    'python3-packaging',
    'python3-hypothesis',
    'python3-pytest-astropy',
    'python3-pytest-doctestplus',
    'python3-pytest-astropy-header',
    'python3-pytest-remotedata',
    'python3-pytest-openfiles',
    'python3-pytest-arraydiff',
    'python3-pytest-filter-subpackage',
    'python3-pytest-mock',
    'python3-psutil',
    'python3-sortedcontainers',
  ],
  envSetup: [],
  install: [
    // A blob-filtered mirror lacks the IERS-B table (3.5 MB); astropy.utils.iers only needs the file to
    // exist at import. An empty stand-in where the code names it but the snapshot has none: a test
    // that reads IERS-B fails here (a full clone has the real file).
    IERS_B_STANDIN,
    'python3 setup.py build_ext --inplace -j 2 >/tmp/faun-build.log 2>&1 || (tail -50 /tmp/faun-build.log; exit 1)',
  ],
  preTest: [
    'python3 setup.py build_ext --inplace -j 2 >/tmp/faun-rebuild.log 2>&1 || tail -50 /tmp/faun-rebuild.log',
  ],
  testCmd: `PYTHONPATH=/testbed ${PYTEST} {test_files}`,
  parser: 'pytest-v2',
  env: { PYTHONDONTWRITEBYTECODE: '1', SETUPTOOLS_SCM_PRETEND_VERSION: '5.1.0', CFLAGS: ASTROPY_CFLAGS },
  specVersion: '1',
  swebench: {
    python: '3.9 (3.10 for v5.3)',
    differs: [
      'python → 3.11 (bookworm)',
      'numpy 1.25.2 → 1.24.2; pyerfa 2.0.0.3 → 2.0.0.1; pytest 7.4.0 → 7.2.1; hypothesis 6.82.6 → 6.67.1',
      'setuptools==68.0.0 build pin → Debian setuptools 66; pip install -e .[test] → build_ext --inplace',
      'C extensions compiled with -O0 -g0 (after the default -O2 -g: a build several times faster)',
      'version from SETUPTOOLS_SCM_PRETEND_VERSION (the snapshot has no tags)',
    ],
  },
};

/**
 * astropy "1.3" (base commits of 2017–2018, the 3.1 development line): built with the astropy_helpers
 * submodule, which a snapshot does not carry; it comes from its repository at the commit the
 * environment commit's tree records, and is copied into place before the in-place build
 * (`--offline --no-git`: ah_bootstrap neither downloads nor runs git). Python 3.9 (bullseye), whose
 * numpy 1.19 and Cython 0.29 still build that code.
 */
const ASTROPY_HELPERS = pySource('astropy/astropy-helpers', '7f11678c03286f72acc9bab77868dabaeb368fda');
const ASTROPY_BUILD_13 =
  'python3 setup.py build_ext --inplace -j 2 --offline --no-git >/tmp/faun-build.log 2>&1';
const ASTROPY_13: EnvSpec = {
  name: 'astropy/astropy',
  versions: ['1.3'],
  toolchain: 'python',
  suite: 'bullseye',
  apt: [
    'python3-dev',
    'gcc',
    'cython3',
    'python3-numpy',
    'python3-setuptools',
    'python3-jinja2',
    'python3-yaml',
    'python3-packaging',
    'python3-pytest-astropy',
    'python3-pytest-doctestplus',
    'python3-pytest-remotedata',
    'python3-pytest-openfiles',
    'python3-pytest-arraydiff',
    'python3-pytest-mock',
    'python3-psutil',
  ],
  sources: [ASTROPY_HELPERS.source],
  // Python 3.9 and numpy 1.19 warn where 3.6 and 1.16 did not, and astropy's tests make deprecations
  // errors: collection fails on `collections.MutableSequence`, io.fits tests on `tostring()`.
  envSetup: [
    py36CollectionsAbc(),
    astropyDeprecationIgnores([String.raw`tostring\(\) is deprecated\. Use tobytes\(\) instead\.`]),
  ],
  install: [
    `rm -rf astropy_helpers && cp -a ${ASTROPY_HELPERS.source.dest} astropy_helpers`,
    `${ASTROPY_BUILD_13} || (tail -50 /tmp/faun-build.log; exit 1)`,
  ],
  preTest: [`${ASTROPY_BUILD_13} || tail -50 /tmp/faun-build.log`],
  testCmd: `PYTHONPATH=/testbed ${PYTEST} {test_files}`,
  parser: 'pytest-v2',
  env: { PYTHONDONTWRITEBYTECODE: '1', CFLAGS: ASTROPY_CFLAGS, PYTEST_PLUGINS: ASTROPY_COMPAT_PLUGIN },
  specVersion: '1',
  swebench: {
    python: '3.6',
    differs: [
      'python 3.6 → 3.9 (bullseye); the collections ABCs are set as attributes of collections, as on 3.6 (no DeprecationWarning)',
      "numpy 1.19's tostring() DeprecationWarning, which 1.16 does not have, is on astropy's own ignore list",
      'numpy 1.16.0 → 1.19.5; pytest → 6.0.2',
      'astropy_helpers from its repository at the submodule commit of the environment commit (SWE-bench: ah_bootstrap downloads it)',
      'pip install -e .[test] → build_ext --inplace',
      'C extensions compiled with -O0 -g0 (after the default -O2 -g: a build several times faster)',
    ],
  },
};

/** Not run on this machine (mirror too large to fetch); written from SWE-bench's specs for Debian. */
const MATPLOTLIB: EnvSpec = {
  name: 'matplotlib/matplotlib',
  versions: ['3.0', '3.1', '3.2', '3.3', '3.4', '3.5', '3.6', '3.7', '3.8', '3.9'],
  toolchain: 'python',
  apt: [
    'python3-dev',
    'g++',
    'pkg-config',
    'libfreetype-dev',
    'libqhull-dev',
    'python3-numpy',
    'python3-pybind11',
    'python3-setuptools-scm',
    'python3-certifi',
    'python3-cycler',
    'python3-dateutil',
    'python3-fonttools',
    'python3-kiwisolver',
    'python3-packaging',
    'python3-pil',
    'python3-pyparsing',
    'python3-contourpy',
    'ghostscript',
    'inkscape',
  ],
  envSetup: [],
  install: ['MPLSETUPCFG= python3 setup.py build_ext --inplace -j 2'],
  preTest: ['python3 setup.py build_ext --inplace -j 2 >/dev/null 2>&1 || true'],
  testCmd: `PYTHONPATH=/testbed/lib ${PYTEST} {test_files}`,
  parser: 'matplotlib',
  env: { ...BASE_ENV, SETUPTOOLS_SCM_PRETEND_VERSION: '3.7.0' },
  specVersion: '1',
  swebench: {
    python: '3.11 (3.8 for 3.1–3.4, 3.7 for 3.0)',
    differs: ["numpy/contourpy/pillow from bookworm instead of SWE-bench's conda environment"],
    notRunHere: NOT_FETCHABLE,
  },
};

const SKLEARN: EnvSpec = {
  name: 'scikit-learn/scikit-learn',
  versions: ['0.20', '0.21', '0.22', '1.3'],
  toolchain: 'python',
  suite: 'bullseye',
  apt: [
    'python3-dev',
    'g++',
    'cython3',
    'python3-numpy',
    'python3-scipy',
    'python3-joblib',
    'python3-threadpoolctl',
    'python3-pandas',
    'python3-matplotlib',
  ],
  envSetup: [],
  install: ['python3 setup.py build_ext --inplace -j 2'],
  preTest: ['python3 setup.py build_ext --inplace -j 2 >/dev/null 2>&1 || true'],
  testCmd: `PYTHONPATH=/testbed ${PYTEST} {test_files}`,
  parser: 'pytest-v2',
  env: BASE_ENV,
  specVersion: '1',
  swebench: {
    python: '3.6 (0.20–0.22), 3.9 (1.3)',
    differs: ['python → 3.9; numpy 1.19.2 → 1.19.5; scipy 1.5.2 → 1.6.0; cython 0.29 from bullseye'],
    notRunHere: NOT_FETCHABLE,
  },
};

export const MORE_SPECS: EnvSpec[] = [
  SEABORN,
  XARRAY,
  ...PYLINT,
  SPHINX_3,
  SPHINX_5,
  ASTROPY_13,
  ASTROPY,
  MATPLOTLIB,
  SKLEARN,
];
