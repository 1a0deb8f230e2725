/**
 * The Python projects of the real-log corpus: where each source tree comes from, the test command (the form
 * SWE-bench runs for that kind of repository) and which of faun's parsers read each log.
 */

/** A source tree: a tag of a fetched GitHub mirror, or a Debian source package (`apt-get source`). */
export type Source =
  | { kind: 'git'; repository: string; tag: string; commit: string }
  | { kind: 'debian'; package: string; version: string; dir: string };

export interface Run {
  /** File stem of the log and its vectors. */
  name: string;
  /** Shell command run in /testbed (output of stdout and stderr together is the log). */
  command: string;
  /** faun parser names applied to the log, each giving one vector (`<name>.<parser>.json`). */
  parsers: string[];
  /** Stop the run after this many seconds (the log ends there). */
  stopAfter?: number;
}

export interface Project {
  /** Directory under vectors/real-logs. */
  dir: string;
  /** `owner/repo` the log is of. */
  project: string;
  source: Source;
  /** Steps run once in /testbed before the runs. */
  prepare?: string;
  runs: Run[];
}

/** Faun parser name → SWE-bench function. */
export const REFERENCE_FUNCTIONS: Record<string, string> = {
  pytest: 'parse_log_pytest',
  'pytest-options': 'parse_log_pytest_options',
  'pytest-v2': 'parse_log_pytest_v2',
  matplotlib: 'parse_log_matplotlib',
  seaborn: 'parse_log_seaborn',
  sympy: 'parse_log_sympy',
  django: 'parse_log_django',
};

/** SWE-bench's pytest command (`pytest -rA`), and astropy's (`-vv`, classic progress, `id STATUS` lines). */
const RA = 'python3 -m pytest -rA -p no:cacheprovider';
const ASTROPY = 'python3 -m pytest -rA -vv -o console_output_style=classic --tb=no -p no:cacheprovider';

export const PROJECTS: Project[] = [
  {
    dir: 'flask',
    project: 'pallets/flask',
    source: {
      kind: 'git',
      repository: 'pallets/flask',
      tag: '2.2.2',
      commit: 'a1c478bc93d3dc018a6e7a1ba3cf5409553c9df3',
    },
    runs: [
      {
        name: 'tests',
        command: `PYTHONPATH=/testbed/src ${RA} tests`,
        parsers: ['pytest', 'seaborn', 'pytest-v2'],
      },
    ],
  },
  {
    dir: 'requests',
    project: 'psf/requests',
    source: {
      kind: 'git',
      repository: 'psf/requests',
      tag: 'v2.28.1',
      commit: '4d394574f5555a8ddcc38f707e0c9f57f55d9a3b',
    },
    runs: [
      { name: 'tests', command: `PYTHONPATH=/testbed ${RA} tests`, parsers: ['pytest-options', 'pytest'] },
    ],
  },
  {
    dir: 'pytest',
    project: 'pytest-dev/pytest',
    source: {
      kind: 'git',
      repository: 'pytest-dev/pytest',
      tag: '7.2.1',
      commit: '1ae778f13ec8350e224ae6a365f21cc0d83af018',
    },
    prepare:
      "printf '%s\\n' \"version = '7.2.1'\" '__version__ = version' 'version_tuple = (7, 2, 1)' > src/_pytest/_version.py",
    runs: [
      {
        name: 'skipping-terminal-mark',
        command: `PYTHONPATH=/testbed/src ${RA} testing/test_skipping.py testing/test_terminal.py testing/test_mark.py`,
        parsers: ['pytest', 'pytest-v2', 'seaborn', 'matplotlib'],
      },
      {
        name: 'python-vv-classic',
        command: `PYTHONPATH=/testbed/src ${ASTROPY} testing/python/approx.py testing/python/metafunc.py testing/test_runner.py`,
        parsers: ['pytest-v2', 'pytest'],
      },
    ],
  },
  {
    dir: 'marshmallow',
    project: 'marshmallow-code/marshmallow',
    source: {
      kind: 'git',
      repository: 'marshmallow-code/marshmallow',
      tag: '3.18.0',
      commit: '2805f32461fc7801a5f7b6d83facf7cbb8bca278',
    },
    runs: [
      { name: 'tests', command: `PYTHONPATH=/testbed/src ${RA} tests`, parsers: ['pytest', 'matplotlib'] },
    ],
  },
  {
    dir: 'seaborn',
    project: 'mwaskom/seaborn',
    source: {
      kind: 'git',
      repository: 'mwaskom/seaborn',
      tag: 'v0.12.2',
      commit: '55a328ba4301f429aa454f5824861323caf91cd0',
    },
    runs: [
      {
        name: 'core-relational',
        // SWE-bench's seaborn command (`pytest --no-header -rA`).
        command:
          'MPLBACKEND=Agg PYTHONPATH=/testbed python3 -m pytest --no-header -rA -p no:cacheprovider tests/test_core.py tests/test_relational.py tests/test_palettes.py',
        parsers: ['seaborn', 'pytest', 'pytest-v2'],
      },
    ],
  },
  {
    dir: 'astroid',
    project: 'pylint-dev/astroid',
    source: { kind: 'debian', package: 'python3-astroid', version: '2.14.2-1', dir: 'astroid-2.14.2' },
    runs: [
      { name: 'tests', command: `PYTHONPATH=/testbed ${RA} tests`, parsers: ['pytest', 'pytest-options'] },
    ],
  },
  {
    dir: 'django',
    project: 'django/django',
    source: {
      kind: 'debian',
      package: 'python-django',
      version: '3:3.2.25-0+deb12u3',
      dir: 'python-django-3.2.25',
    },
    runs: [
      {
        name: 'runtests',
        // SWE-bench's django command.
        command:
          'PYTHONPATH=/testbed LANG=C.UTF-8 python3 tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 basic model_fields expressions queries test_runner utils_tests validators',
        parsers: ['django'],
      },
    ],
  },
  {
    dir: 'sympy',
    project: 'sympy/sympy',
    source: { kind: 'debian', package: 'sympy', version: '1.11.1-1', dir: 'sympy-1.11.1' },
    runs: [
      {
        name: 'core-sets-logic',
        // SWE-bench's sympy command.
        command:
          "PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' python3 bin/test -C --verbose sympy/core sympy/sets sympy/logic sympy/ntheory",
        parsers: ['sympy'],
        // sympy/core alone outlasts the time the corpus allows; the log ends inside test_expr.py.
        stopAfter: 1320,
      },
    ],
  },
];

/** Debian packages of the corpus image (on top of faun's python toolchain image), one group a line. */
export const CORPUS_APT: string[] = [
  // flask
  'python3-werkzeug python3-jinja2 python3-itsdangerous python3-click python3-blinker python3-dotenv python3-asgiref',
  // requests
  'python3-urllib3 python3-chardet python3-idna python3-certifi python3-charset-normalizer python3-pytest-httpbin python3-pytest-mock python3-trustme python3-socks',
  // pytest
  'python3-pluggy python3-attr python3-iniconfig python3-packaging python3-py python3-hypothesis python3-xmlschema python3-pygments python3-mock python3-nose python3-requests python3-argcomplete python3-exceptiongroup python3-tomli',
  // django
  'python3-sqlparse python3-tz python3-yaml python3-pil',
  // sympy
  'python3-mpmath',
  // astroid
  'python3-lazy-object-proxy python3-wrapt python3-typing-extensions',
  // marshmallow
  'python3-dateutil python3-simplejson',
  // seaborn
  'python3-numpy python3-pandas python3-matplotlib python3-scipy',
];
