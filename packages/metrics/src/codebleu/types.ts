/** Public types of the CodeBLEU port. */

/** Languages CodeBLEU supports here (TypeScript per the project's mapping: TS grammar + JavaScript rules). */
export type CodeLang = 'python' | 'java' | 'javascript' | 'typescript' | 'go';

/** The four components and their weighted sum, as codebleu 0.7.1 reports them. */
export interface CodeBleuResult {
  codebleu: number;
  ngram_match_score: number;
  weighted_ngram_match_score: number;
  syntax_match_score: number;
  dataflow_match_score: number;
}

/** The fields of a {@link CodeBleuResult}, in the reference's order. */
export const CODEBLEU_FIELDS = [
  'codebleu',
  'ngram_match_score',
  'weighted_ngram_match_score',
  'syntax_match_score',
  'dataflow_match_score',
] as const satisfies readonly (keyof CodeBleuResult)[];

/** Options; every flag defaults to the reference (codebleu 0.7.1) behaviour. */
export interface CodeBleuOptions {
  /** Component weights (n-gram, weighted n-gram, syntax, dataflow); default 0.25 each. */
  weights?: readonly [number, number, number, number];
  /** Tokenizer of the two n-gram parts; default Python `str.split()`. */
  tokenizer?: (s: string) => string[];
  /** Use θ·dataflow instead of θ·(dataflow or 1) (the reference turns a 0 dataflow into full credit). */
  fixDataflowZero?: boolean;
  /** Weighted n-gram: use the real reference lengths in the brevity penalty instead of 2 per sample. */
  fixWeightedBrevity?: boolean;
  /** Syntax match: count candidate subtrees found in the reference (the paper's definition). */
  fixSyntaxDirection?: boolean;
  /** Dataflow: slice token text by code-point columns (the reference applies UTF-8 byte columns). */
  fixByteColumns?: boolean;
  /** Dataflow: also handle JS/TS plain `=`, `let`/`const` for loops and Go `:=` (the reference ignores them). */
  fixDfgRules?: boolean;
  /** Dataflow: merge name lists in order of first occurrence instead of CPython's set order under
   * `PYTHONHASHSEED=0` (which depends on the names' hashes, so renaming variables changes the score). */
  fixSetOrder?: boolean;
  /** Java/JS/TS/Go: remove comments by the parser's comment nodes instead of the reference's regex (which
   * also cuts `//` inside template literals and raw strings). */
  fixCommentRemoval?: boolean;
  /** For TypeScript: parse with the TSX grammar (for .tsx sources). */
  tsx?: boolean;
}
