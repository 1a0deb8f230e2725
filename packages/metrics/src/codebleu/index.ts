/** CodeBLEU port (codebleu 0.7.1 semantics, deterministic dataflow order). */
export { CODE_LANGS, type CodePair, codebleu, corpusCodebleu, initCodeBleu } from './codebleu.ts';
export { removeComments } from './comments.ts';
export { CODEBLEU_FIELDS, type CodeBleuOptions, type CodeBleuResult, type CodeLang } from './types.ts';
