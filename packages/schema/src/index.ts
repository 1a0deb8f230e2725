/**
 * @faun/schema — the records that flow between faun's stages (zod schemas + inferred types) and
 * streaming JSONL read/write with line-numbered errors.
 * @module
 */
export * from './common.ts';
export * from './execution.ts';
export * from './funnel.ts';
export * from './github.ts';
export * from './jsonl.ts';
export * from './prediction.ts';
export * from './runlog.ts';
export * from './stable-json.ts';
export * from './tasks.ts';
