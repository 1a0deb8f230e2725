/** Benchmark rows for tests of row import: a Multi-SWE-bench row as its dataset writes it (one FAIL_TO_PASS test). */
export const MSB_ROW = {
  org: 'fasterxml',
  repo: 'jackson-core',
  number: 42,
  base: { sha: 'b42b42b' },
  fix_patch: 'F',
  test_patch: 'T',
  f2p_tests: { 'com.x.ATest': { run: 'FAIL', test: 'FAIL', fix: 'PASS' } },
  lang: 'java',
};
