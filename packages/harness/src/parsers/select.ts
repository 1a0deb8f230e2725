/**
 * Which parser reads an instance's log. The reference the row comes from decides: a SWE-bench row gets
 * SWE-bench's per-repository choice (its MAP_REPO_TO_PARSER), a Multi-SWE-bench row the parser of
 * Multi-SWE-bench's instance class for that repository.
 */
import type { ParserName } from './index.ts';

export type GraderSource = 'swebench' | 'multi-swe-bench';

/** `owner/repo` → parser, as SWE-bench chooses. One line per repository. */
export const SWEBENCH_PARSERS: Record<string, ParserName> = {
  'astropy/astropy': 'pytest-v2',
  'django/django': 'django',
  'matplotlib/matplotlib': 'matplotlib',
  'mwaskom/seaborn': 'seaborn',
  'pallets/flask': 'pytest',
  'psf/requests': 'pytest-options',
  'pydata/xarray': 'pytest',
  'pylint-dev/pylint': 'pytest-options',
  'pytest-dev/pytest': 'pytest',
  'scikit-learn/scikit-learn': 'pytest-v2',
  'sphinx-doc/sphinx': 'pytest-v2',
  'sympy/sympy': 'sympy',
  'marshmallow-code/marshmallow': 'pytest',
  'pvlib/pvlib-python': 'pytest',
  'pydicom/pydicom': 'pytest-options',
  'pylint-dev/astroid': 'pytest',
  'pyvista/pyvista': 'pytest',
  'sqlfluff/sqlfluff': 'pytest',
};

/** `org/repo` → parser, as Multi-SWE-bench chooses. One line per repository. */
export const MSB_PARSERS: Record<string, ParserName> = {};

/** The reference's parser for `repo`, or null when that reference has none for it. */
export function referenceParser(source: GraderSource, repo: string): ParserName | null {
  const table = source === 'swebench' ? SWEBENCH_PARSERS : MSB_PARSERS;
  return Object.hasOwn(table, repo) ? (table[repo] ?? null) : null;
}
