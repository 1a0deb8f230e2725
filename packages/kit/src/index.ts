/**
 * @faun/kit — plumbing shared by every stage: typed errors, the progress display, the run record,
 * Ctrl+C handling, the command definition packages register with the CLI, hashing.
 * @module
 */
export * from './command.ts';
export * from './errors.ts';
export * from './files.ts';
export * from './hash.ts';
export * from './interrupt.ts';
export * from './invocation.ts';
export * from './lock.ts';
export * from './paths.ts';
export * from './process.ts';
export * from './progress.ts';
export * from './random.ts';
export * from './repo-dirs.ts';
export * from './run-record.ts';
export * from './suggest.ts';
export * from './version.ts';
