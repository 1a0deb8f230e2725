/**
 * @faun/harness — execution verification: environments (layered images), the patch apply chain, runs in
 * sandboxed containers, log parsers, grading, run reports, validation of new instances.
 * @module
 */
export { bareDockerRun, DockerBackend, ImageBuildError } from './docker.ts';
export {
  type EvalType,
  type Grade,
  gradeLog,
  lookupStatus,
  type ResolvedStatus,
  resolvedStatus,
} from './grading.ts';
export { HEALTH_FILE } from './health.ts';
export {
  builtinPredictions,
  loadInstances,
  loadPredictions,
  type PatchPrediction,
  toExecutionInstance,
} from './instances.ts';
export { LocalBackend } from './local-backend.ts';
export {
  isParserName,
  PARSERS,
  type ParserName,
  parseLog,
  stripAnsi,
  type TestMap,
} from './parsers/index.ts';
export { isEmptyPatch, patchFiles, unsafePaths } from './patch.ts';
export { regradeRun } from './regrade.ts';
export { snapshotRepo } from './repo.ts';
export { type JacksonCoreDeps, jacksonCoreDeps, jacksonCoreSpec, NEWER_ASSERTJ } from './repo-specs-java.ts';
export { instanceReport, type RunReport, runReport } from './report.ts';
export { type InstanceRun, type RunOptions, runInstance } from './run-instance.ts';
export { type Backend, DEFAULT_LIMITS, type Limits, type Sandbox } from './sandbox.ts';
export { PR_VERSIONS, type PrVersion, versionForPr } from './spec-versions.ts';
export { type EnvSpec, LANGUAGE_DEFAULTS, REPO_SPECS, specFor, testCommand } from './specs.ts';
export { deriveTests, type StageLog, type Validation, validateInstances } from './validate.ts';
export { openJournal } from './validate-journal.ts';
export { deriveMsb, type MsbDerived } from './validate-msb.ts';
export { type VerifyOptions, type VerifyOutcome, verifyRun } from './verify.ts';
