/**
 * Shell steps shared by environment specs (pure: each returns the text of one `RUN` step).
 */
import type { DebianSuite } from './specs.ts';

/** Where Debian's Python packages live, for every interpreter of the image. */
export const PY_DIST = '/usr/lib/python3/dist-packages';

/**
 * Unpacks Debian packages of another suite over this image (`dpkg -x`, no dependency resolution): for
 * pure-Python packages that the image's suite lacks or has at an unusable version (both suites install
 * them under /usr/lib/python3/dist-packages). A package the suite lacks is reported and skipped; the
 * other suite's list is removed afterwards.
 */
export function debsFrom(suite: DebianSuite, packages: string[]): string {
  if (!packages.length) throw new Error('debsFrom: no packages');
  const list = `/etc/apt/sources.list.d/faun-${suite}.list`;
  return [
    `echo "deb $(grep -o -m1 'http[^ ]*' /etc/apt/sources.list) ${suite} main" > ${list}`,
    'apt-get update -qq',
    'mkdir -p /tmp/faun-debs && cd /tmp/faun-debs',
    `for p in ${packages.join(' ')}; do apt-get download "$p/${suite}" || echo "faun: $p not in ${suite}"; done`,
    'for d in *.deb; do [ -e "$d" ] && dpkg -x "$d" /; done',
    `cd / && rm -rf /tmp/faun-debs ${list} /var/lib/apt/lists/*`,
  ].join(' && ');
}

/**
 * What `pip install -e .` leaves of a dependency the environment pinned: pip keeps the installed
 * version when the checked-out project's own requirement allows it and otherwise replaces it with the
 * newest release that does. So an instance whose base commit caps the dependency below the
 * environment's pin runs on an older release (pylint at a 2.15 base commit with `astroid<=2.12.0-dev0`
 * runs its tests on astroid 2.11.7, not the pinned 2.12.13). The requirement is read from the work
 * tree's setup.cfg / pyproject.toml / setup.py; `releases` maps each candidate version to the folder
 * holding that release's tree, and must include the newest release of every range an instance can ask
 * for. The chosen folder is written to `pth`.
 */
export const PICK_RELEASE_PY = [
  'import re, sys',
  'from packaging.specifiers import SpecifierSet',
  'from packaging.version import Version',
  'name, pinned, pth = sys.argv[1:4]',
  "releases = dict(a.split('=', 1) for a in sys.argv[4:])",
  "text = ''",
  "for f in ('setup.cfg', 'pyproject.toml', 'setup.py'):",
  '    try:',
  "        text += open(f).read() + '\\n'",
  '    except OSError:',
  '        pass',
  'm = re.search(r"\\b" + re.escape(name) + r"\\s*((?:[<>=!~]=?\\s*[\\w.*+-]+\\s*,?\\s*)+)", text)',
  "req = SpecifierSet(m.group(1).strip().rstrip(',')) if m else SpecifierSet('')",
  'ok = [v for v in releases if req.contains(Version(v), prereleases=True)]',
  'choice = pinned if pinned in ok else (max(ok, key=Version) if ok else pinned)',
  "open(pth, 'w').write(releases[choice] + '\\n')",
  "print('faun: %s %s (requirement %r, pinned %s)' % (name, choice, str(req), pinned))",
].join('\n');

/** The step that runs PICK_RELEASE_PY in the work tree (base64 so no shell or Dockerfile quoting applies). */
export function pickRelease(
  name: string,
  pinned: string,
  pth: string,
  releases: Record<string, string>,
): string {
  if (!releases[pinned])
    throw new Error(`pickRelease: the pinned ${name} ${pinned} is not among the releases`);
  const code = Buffer.from(PICK_RELEASE_PY).toString('base64');
  const args = Object.keys(releases)
    .sort()
    .map((v) => `${v}=${releases[v]}`);
  return `echo ${code} | base64 -d | python3 - ${name} ${pinned} ${pth} ${args.join(' ')}`;
}

/** The step that writes `text` to `path`, its folder made first (base64, so no shell or Dockerfile quoting applies). */
export function writeFileStep(path: string, text: string): string {
  const dir = path.slice(0, path.lastIndexOf('/'));
  return `mkdir -p ${dir} && echo ${Buffer.from(text).toString('base64')} | base64 -d > ${path}`;
}

/**
 * Some Debian packages record version 0.0.0 in their egg-info (bullseye's python3-pint 0.16.1: built
 * without the git metadata setuptools_scm reads), so `importlib.metadata.version` and a test suite's
 * minimum-version checks see 0.0.0 and skip tests. Writes the package's own Debian upstream version
 * into that metadata.
 */
export function debianEggVersion(deb: string, dist: string, dir = PY_DIST): string {
  return [
    `v=$(dpkg-query -W -f='\${Version}' ${deb} | sed -e 's/^[0-9]*://' -e 's/-[^-]*$//')`,
    `for e in ${dir}/${dist}-0.0.0.egg-info; do [ -e "$e" ] || continue`,
    `sed -i "s/^Version: 0\\.0\\.0$/Version: $v/" "$e/PKG-INFO"`,
    `mv "$e" "${dir}/${dist}-$v.egg-info"; done`,
  ].join('; ');
}
