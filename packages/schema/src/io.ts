/**
 * `@faun/schema/io`: the JSONL and stable-JSON helpers without the zod record schemas, for commands that
 * only read and write lines (building every schema costs a short command a noticeable part of its start).
 * @module
 */
export * from './jsonl.ts';
export { RUN_RECORD_VERSION } from './runlog-version.ts';
export * from './stable-json.ts';
