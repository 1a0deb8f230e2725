/**
 * @faun/github/testing — an offline fake of GitHub's REST and GraphQL APIs over a deterministic
 * generated corpus with planted ground truth (see testing/README.md).
 * @module
 */
export { allPaths, patchFor, sourcePath, testPath } from './code.ts';
export { BLOCK, Corpus, headSha } from './corpus.ts';
export * from './corpus-types.ts';
export { ALL_FAULTS, type FaultOptions, FaultPlan, type ScriptedFault } from './faults.ts';
export { PAGE_NOT_SUPPORTED, PAGINATION_LIMITED } from './lists.ts';
export { FakeGitHub, type FakeGitHubOptions, type LoggedRequest } from './server.ts';
