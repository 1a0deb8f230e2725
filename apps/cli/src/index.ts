/** @faun/cli — the `faun` command, for embedding and tests. @module */
export { COMMON_OPTIONS, handleError, runCli } from './program.ts';
export { REGISTRY } from './registry.ts';
