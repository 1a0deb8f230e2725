/**
 * @faun/harness — execution verification: environments (layered images), the patch apply chain, runs in
 * sandboxed containers, log parsers, grading, run reports, validation of new instances.
 * @module
 */

export * from './benchmarks/index.ts';
export { docker, envTag } from './envs/docker-images.ts';
export {
  JACKSON_XML_ASKS,
  JACKSON_XML_REPO,
  type XmlAsks,
  xmlVersionName,
} from './envs/jackson-xml-envs.ts';
export { snapshotRepo } from './envs/repo.ts';
export {
  FDP_DEBIAN,
  JACKSON_LINES,
  JAF,
  JAVA8_OPENS,
  JAXB_API,
  type JacksonXmlDeps,
  jacksonXmlDeps,
  jacksonXmlSpec,
  SJSXP_TEST,
} from './envs/repo-specs-jackson-xml.ts';
export {
  ASSERTJ,
  FASTDOUBLEPARSER_COMMITS,
  type JacksonCoreDeps,
  jacksonCoreDeps,
  jacksonCoreSpec,
} from './envs/repo-specs-java.ts';
export { PR_VERSIONS, type PrVersion, versionForPr } from './envs/spec-versions.ts';
export { type EnvSpec, LANGUAGE_DEFAULTS, REPO_SPECS, specFor, testCommand } from './envs/specs.ts';
export { isEmptyPatch, patchFiles, unsafePaths } from './files/patch.ts';
export {
  type EvalType,
  type Grade,
  gradeLog,
  lookupStatus,
  type ResolvedStatus,
  resolvedStatus,
} from './grading/grading.ts';
export {
  isParserName,
  PARSERS,
  type ParserName,
  parseLog,
  stableTestName,
  stripAnsi,
  type TestMap,
} from './parsers/index.ts';
export { regradeRun } from './regrade.ts';
export { HEALTH_FILE } from './report/health.ts';
export { instanceReport, type RunReport, runReport } from './report/report.ts';
export {
  builtinPredictions,
  loadInstances,
  loadPredictions,
  type PatchPrediction,
  toExecutionInstance,
} from './rows/instances.ts';
export { type InstanceRun, type RunOptions, runInstance } from './run/run-instance.ts';
export { instanceDirName, stageLogName } from './run/stage-logs.ts';
export { bareDockerRun, DockerBackend, ImageBuildError } from './sandbox/docker.ts';
export { LocalBackend } from './sandbox/local-backend.ts';
export { type Backend, DEFAULT_LIMITS, type Limits, type Sandbox } from './sandbox/sandbox.ts';
export { deriveTests, type StageLog, type Validation, validateInstances } from './validate/validate.ts';
export { openJournal } from './validate/validate-journal.ts';
export { deriveMsb, type MsbDerived } from './validate/validate-msb.ts';
export { type VerifyOptions, type VerifyOutcome, verifyRun } from './verify.ts';
