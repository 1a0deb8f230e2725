/**
 * Preloaded by `bun test` (bunfig.toml): the environment every test file runs in.
 * - PYTEST_DISABLE_PLUGIN_AUTOLOAD: the host's pytest runs of the local-backend tests (the fixtures' own
 *   tests) load no third-party plugins installed on the host. None of the fixtures use one, and loading
 *   them (hypothesis, pytest-benchmark, …) cost about 1 s of CPU per pytest run. Set it to `0` to load them.
 */
process.env.PYTEST_DISABLE_PLUGIN_AUTOLOAD ??= '1';
if (process.env.PYTEST_DISABLE_PLUGIN_AUTOLOAD === '0') delete process.env.PYTEST_DISABLE_PLUGIN_AUTOLOAD;
