/**
 * Environment specs of real repositories (SWE-bench Lite's Python repositories), built from Debian's
 * packages only — no PyPI. Which versions work is documented in packages/harness/README.md.
 */
import { JACKSON_XML_SPECS } from './jackson-xml-envs.ts';
import { CPP_SPECS } from './repo-specs-cpp.ts';
import { JAVA_SPECS } from './repo-specs-java.ts';
import { MORE_SPECS } from './repo-specs-more.ts';
import { NATIVE_SPECS } from './repo-specs-native.ts';
import { NODE_SPECS } from './repo-specs-node.ts';
import { RUST_SPECS } from './repo-specs-rust.ts';
import { debsFrom } from './spec-steps.ts';
import type { EnvSpec } from './specs.ts';

const PY_ENV = { PYTHONDONTWRITEBYTECODE: '1', PYTHONWARNINGS: 'ignore' };

/**
 * requests' tests call httpbin.org (over http and https) and other hosts; with the network off they get
 * Debian's httpbin served by gunicorn (threaded workers send `Connection: keep-alive`, as httpbin.org does)
 * on loopback ports 80 and 443, those host names pointed at 127.0.0.1 by the sandbox (`localHosts`), and a certificate
 * signed by a CA made when the environment is built and trusted through the system store
 * (`REQUESTS_CA_BUNDLE`, which every requests version honours). Servers write to /dev/null so they cannot
 * hold the log pipe open.
 */
const HTTPBIN_HOSTS = [
  'httpbin.org',
  'www.httpbin.org',
  'www.google.co.uk',
  'example.com',
  'www.example.com',
];
const HTTPBIN_PKI = '/etc/faun-httpbin';
const MAKE_HTTPBIN_CERT = [
  `mkdir -p ${HTTPBIN_PKI} && cd ${HTTPBIN_PKI}`,
  `openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj '/CN=faun local CA' -keyout ca.key -out ca.crt`,
  `openssl req -newkey rsa:2048 -nodes -subj '/CN=httpbin.org' -keyout server.key -out server.csr`,
  `printf 'subjectAltName=${[...HTTPBIN_HOSTS, 'localhost'].map((h) => `DNS:${h}`).join(',')},IP:127.0.0.1\\n' > san.ext`,
  'openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 3650 -sha256 -extfile san.ext -out server.crt',
  'cp ca.crt /usr/local/share/ca-certificates/faun-local-ca.crt && update-ca-certificates',
  // the local httpbin runs as the test user: it reads the server key; the CA key is not kept (no new certificates)
  'chmod 0644 server.key && rm -f ca.key',
].join(' && ');
const GUNICORN = 'python3 -m gunicorn -k gthread --threads 8 --keep-alive 5 --log-level critical';
const LOCAL_HTTPBIN =
  `(${GUNICORN} -b 127.0.0.1:80 httpbin:app >/dev/null 2>&1 &); ` +
  `(${GUNICORN} -b 127.0.0.1:443 --certfile ${HTTPBIN_PKI}/server.crt --keyfile ${HTTPBIN_PKI}/server.key httpbin:app >/dev/null 2>&1 &); ` +
  `for _ in $(seq 100); do python3 -c "import socket; [socket.create_connection(('127.0.0.1', p)) for p in (80, 443)]" 2>/dev/null && break; sleep 0.1; done;`;

/**
 * Python ≥ 3.10 removed the ABC aliases in `collections` (`collections.Mapping`…) that code from before
 * 2018 imports; this .pth file (run at interpreter start) puts them back.
 */
const PY_COLLECTIONS_COMPAT =
  "printf '%s\\n' 'import collections, collections.abc' 'for _n in collections.abc.__all__:' " +
  "'    if not hasattr(collections, _n): setattr(collections, _n, getattr(collections.abc, _n))' " +
  '> /usr/lib/python3/dist-packages/faun_collections_compat.py && ' +
  "echo 'import faun_collections_compat' > /usr/lib/python3/dist-packages/faun_collections_compat.pth";

/** sympy's test-runner seed from the determinism contract (`FAUN_TEST_SEED`), 0 where it is unset. */
// biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a JS template
const SYMPY_SEED = '--seed "${FAUN_TEST_SEED:-0}"';

/** SWE-bench Lite's Python repositories on bookworm, built from Debian's packages (no PyPI). */
const LITE_SPECS: EnvSpec[] = [
  {
    name: 'sympy/sympy',
    versions: null,
    toolchain: 'python',
    apt: ['python3-mpmath'],
    envSetup: [PY_COLLECTIONS_COMPAT],
    install: [],
    // `--seed`: the runner would draw its own `random` seed each run (the determinism contract, contract.ts)
    testCmd: `PYTHONWARNINGS='ignore::UserWarning,ignore::SyntaxWarning' python3 bin/test -C --verbose ${SYMPY_SEED} {test_files}`,
    parser: 'sympy',
    env: PY_ENV,
    specVersion: '2',
  },
  {
    name: 'pytest-dev/pytest',
    versions: null,
    toolchain: 'python',
    apt: [
      'python3-py',
      'python3-pluggy',
      'python3-attr',
      'python3-more-itertools',
      'python3-wcwidth',
      'python3-packaging',
      'python3-hypothesis',
      'python3-iniconfig',
      'python3-tomli',
      'python3-mock',
      'python3-nose',
      'python3-xmlschema',
      'python3-pygments',
      'python3-requests',
      'python3-setuptools-scm',
      'python3-atomicwrites',
      'python3-six',
      'python3-argcomplete',
      'python3-exceptiongroup',
      'python3-funcsigs',
    ],
    envSetup: [],
    install: [
      // setuptools_scm writes this file at install time; nothing installs here, so write a stand-in.
      `[ ! -d src/_pytest ] || [ -f src/_pytest/_version.py ] || printf '%s\\n' "version = '{version}.0'" "__version__ = version" "version_tuple = tuple(int(p) for p in version.split('.'))" > src/_pytest/_version.py`,
    ],
    testCmd: 'PYTHONPATH=/testbed/src python3 -m pytest -rA -p no:cacheprovider {test_files}',
    parser: 'pytest',
    // No PYTHONWARNINGS: with it set, pytest's in-process runs (testdir.inline_run) stop adding their
    // `always` filter for DeprecationWarning, so the outer run's `error` filter turns deprecations that
    // the tests expect to be reported into collection errors.
    env: {},
    specVersion: '2',
  },
  {
    name: 'psf/requests',
    versions: null,
    toolchain: 'python',
    apt: [
      'python3-urllib3',
      'python3-chardet',
      'python3-idna',
      'python3-certifi',
      'python3-charset-normalizer',
      'python3-pytest-httpbin',
      'python3-pytest-mock',
      'python3-trustme',
      'python3-socks',
      'python3-httpbin',
      'python3-gunicorn',
      'openssl',
    ],
    envSetup: [MAKE_HTTPBIN_CERT, PY_COLLECTIONS_COMPAT],
    install: [],
    testCmd: `${LOCAL_HTTPBIN} HTTPBIN_URL=http://httpbin.org/ PYTHONPATH=/testbed python3 -m pytest -rA -p no:cacheprovider {test_files}`,
    parser: 'pytest-options',
    // Connect-timeout tests dial 10.255.255.1 and expect it to hang, not to fail as unreachable.
    network: 'tarpit',
    localHosts: HTTPBIN_HOSTS,
    env: { ...PY_ENV, REQUESTS_CA_BUNDLE: '/etc/ssl/certs/ca-certificates.crt' },
    specVersion: '3',
  },
  {
    name: 'pallets/flask',
    versions: null,
    toolchain: 'python',
    apt: [
      'python3-werkzeug',
      'python3-jinja2',
      'python3-itsdangerous',
      'python3-click',
      'python3-blinker',
      'python3-dotenv',
    ],
    envSetup: [],
    install: [],
    testCmd: 'PYTHONPATH=/testbed/src:/testbed python3 -m pytest -rA -p no:cacheprovider {test_files}',
    parser: 'pytest',
    env: PY_ENV,
    specVersion: '2',
  },
  {
    name: 'django/django',
    versions: null,
    toolchain: 'python',
    apt: [
      'python3-asgiref',
      'python3-sqlparse',
      'python3-tz',
      'python3-yaml',
      'python3-jinja2',
      'python3-pil',
    ],
    envSetup: [],
    install: [],
    testCmd:
      'PYTHONPATH=. python3 tests/runtests.py --verbosity 2 --settings=test_sqlite --parallel 1 {test_modules}',
    parser: 'django',
    env: { ...PY_ENV, LANG: 'C.UTF-8' },
    specVersion: '2',
  },
];

/**
 * Versions whose code or tests need Python ≤ 3.9 (SWE-bench runs them on 3.9): a bullseye toolchain.
 * pytest 7.x too: its tests match Python-version-specific output (a SyntaxError's caret column); its
 * tomli dependency is not in bullseye, so bookworm's (pure Python) is unpacked beside it.
 */
const OLD_PYTEST = ['4.4', '4.5', '4.6', '5.0', '5.1', '5.2', '5.3', '5.4', '6.0', '6.1', '6.2', '6.3'];
const PYTEST_7 = ['7.0', '7.1', '7.2', '7.3', '7.4'];
const OLD_REQUESTS = [
  '0.13',
  '0.14',
  '1.0',
  '1.1',
  '1.2',
  '2.0',
  '2.1',
  '2.2',
  '2.3',
  '2.4',
  '2.5',
  '2.7',
  '2.8',
  '2.9',
  '2.10',
];
const OLD_SYMPY = ['1.0', '1.1'];
const OLD_DJANGO = ['2.2', '3.0', '3.1', '3.2', '4.0'];

/** The repository's spec on bullseye (Python 3.9, no `collections` shim needed) for `versions`. */
function onBullseye(
  name: string,
  versions: string[],
  extraApt: string[] = [],
  extraSetup: string[] = [],
): EnvSpec {
  const base = LITE_SPECS.find((s) => s.name === name)!;
  const envSetup = [...base.envSetup.filter((s) => s !== PY_COLLECTIONS_COMPAT), ...extraSetup];
  return { ...base, versions, suite: 'bullseye', apt: [...base.apt, ...extraApt], envSetup };
}

/**
 * Specs for real repositories, one record per repository and version set, in lookup order (the first whose
 * versions match wins: the bullseye ones before the bookworm defaults). Plain data, never changed after this
 * line. Documented in packages/harness/README.md.
 */
export const REPO_SPECS: readonly EnvSpec[] = Object.freeze([
  onBullseye('pytest-dev/pytest', OLD_PYTEST, ['python3-toml']),
  onBullseye('pytest-dev/pytest', PYTEST_7, ['python3-toml'], [debsFrom('bookworm', ['python3-tomli'])]),
  onBullseye('psf/requests', OLD_REQUESTS),
  onBullseye('sympy/sympy', OLD_SYMPY),
  onBullseye('django/django', OLD_DJANGO),
  ...LITE_SPECS,
  ...MORE_SPECS,
  ...NODE_SPECS,
  ...JAVA_SPECS,
  ...JACKSON_XML_SPECS,
  ...NATIVE_SPECS,
  ...RUST_SPECS,
  ...CPP_SPECS,
]);
