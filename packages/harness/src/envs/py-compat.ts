/**
 * Steps that give a newer Debian Python the behaviour of the older interpreter and libraries a SWE-bench
 * environment pins, where a repository's tests depend on it (pure: each returns the text of one `RUN`
 * step). Each removes a difference, never a test.
 */
import { PY_DIST, writeFileStep } from './spec-steps.ts';

/**
 * Python ≤ 3.6: the container ABCs (`collections.MutableSequence`, …) are attributes of `collections`.
 * From 3.7 to 3.9 they are found only through a module `__getattr__` that warns (DeprecationWarning),
 * which a suite that turns deprecations into errors fails on at import. Setting them as attributes at
 * start-up (a `.pth` import) restores 3.6's silent names; code that uses `collections.abc` is unchanged.
 */
export function py36CollectionsAbc(dist = PY_DIST): string {
  const mod = [
    'import collections',
    'import collections.abc',
    '',
    'for _name in collections.abc.__all__:',
    '    if _name not in vars(collections):',
    '        setattr(collections, _name, getattr(collections.abc, _name))',
    '',
  ].join('\n');
  return `${writeFileStep(`${dist}/faun_collections_abc.py`, mod)} && echo import faun_collections_abc > ${dist}/faun-collections-abc.pth`;
}

/** The pytest plugin name `astropyDeprecationIgnores` installs (load it with `PYTEST_PLUGINS`). */
export const ASTROPY_COMPAT_PLUGIN = 'faun_astropy_compat';

/**
 * astropy's test helper turns every DeprecationWarning into an error, except messages it lists per
 * Python version (`_warnings_to_ignore_by_pyver`, the mechanism astropy itself uses for warnings a
 * Python or library version adds). A pytest plugin adds `messages` — deprecations that the pinned
 * versions did not have (numpy 1.19's `tostring()`, absent from the pinned numpy 1.16) — to that list for
 * the running Python and re-applies astropy's filters.
 */
export function astropyDeprecationIgnores(messages: string[], dist = PY_DIST): string {
  const plugin = [
    'import sys',
    '',
    `MESSAGES = ${JSON.stringify(messages)}`,
    '',
    '',
    'def pytest_configure(config):',
    '    try:',
    '        from astropy.tests import helper',
    '    except ImportError:',
    '        return',
    '    ignore = getattr(helper, "_warnings_to_ignore_by_pyver", None)',
    '    if isinstance(ignore, dict):',
    '        ignore.setdefault(sys.version_info[:2], set()).update(MESSAGES)',
    '        helper.treat_deprecations_as_exceptions()',
    '',
  ].join('\n');
  return writeFileStep(`${dist}/${ASTROPY_COMPAT_PLUGIN}.py`, plugin);
}
