/** @faun/metrics @module */
export {};
export * from './codebleu/index.ts';
