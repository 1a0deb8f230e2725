/**
 * CodeBLEU (codebleu 0.7.1 behaviour by default): n-gram match, weighted n-gram match, syntax match and
 * dataflow match, each corpus-level, combined as α·ngram + β·weighted + γ·syntax + θ·(dataflow or 1).
 */
import {
  GrammarNotLoadedError,
  initSyntax,
  isLoaded,
  isNative,
  parseCode,
  parseFlat,
  type SyntaxLang,
} from '@faun/syntax';
import { corpusNgramMatch, corpusWeightedNgramMatch, sampleCounts, type TokenSample } from './bleu.ts';
import { type Analysis, analysisCache, strippedCache } from './cache.ts';
import { removeComments, removeCommentsByTree } from './comments.ts';
import { extractDataflow, matchDataflow, normalizeDataflow } from './dataflow.ts';
import { FIELD_PARENTS } from './dfg-langs.ts';
import { KEYWORDS } from './keywords.ts';
import { pySplit, pyStrip } from './pystr.ts';
import { countMatches } from './subtrees.ts';
import { flattenFlat, flattenTree } from './tree.ts';
import type { CodeBleuOptions, CodeBleuResult, CodeLang } from './types.ts';

/** Every language CodeBLEU supports here. */
export const CODE_LANGS: readonly CodeLang[] = ['python', 'java', 'javascript', 'typescript', 'go'];

function grammarsOf(lang: CodeLang): SyntaxLang[] {
  return lang === 'typescript' ? ['typescript', 'tsx'] : [lang];
}

/**
 * Loads the tree-sitter grammars CodeBLEU needs (all five languages by default); safe to call repeatedly.
 * With `{ wasm: 'lazy' }` only the native parsers are loaded where they exist (and TypeScript's TSX grammar
 * not at all): scoring then throws `GrammarNotLoadedError` for a text that needs a WebAssembly grammar, and
 * the caller loads it with `initCodeBleu([lang])` and scores again (the scoring pool does).
 */
export async function initCodeBleu(
  langs: readonly CodeLang[] = CODE_LANGS,
  opts: { wasm?: 'eager' | 'lazy' } = {},
): Promise<void> {
  if (opts.wasm === 'lazy') await initSyntax(langs as SyntaxLang[], { wasm: 'lazy' });
  else await initSyntax(langs.flatMap(grammarsOf));
}

function grammar(lang: CodeLang, opts: CodeBleuOptions): SyntaxLang {
  if (!CODE_LANGS.includes(lang)) {
    throw new Error(`CodeBLEU: unsupported language '${lang}' (supported: ${CODE_LANGS.join(', ')})`);
  }
  const g: SyntaxLang = lang === 'typescript' && opts.tsx ? 'tsx' : lang;
  if (!isLoaded(g) && !isNative(g)) throw new GrammarNotLoadedError(g);
  return g;
}

/**
 * Comment removal and analysis of one language under one set of options, memoised in the process-wide
 * content-keyed caches (cache.ts): each distinct text is stripped and parsed once per run.
 */
class Analyzer {
  /** The cache scopes: language and the options each derivation depends on. */
  private readonly stripKey: string;
  private readonly analysisKey: string;
  constructor(
    private readonly lang: CodeLang,
    private readonly g: SyntaxLang,
    private readonly opts: CodeBleuOptions,
  ) {
    const byTree = opts.fixCommentRemoval === true && lang !== 'python';
    this.stripKey = `${lang}|${byTree ? g : '-'}`;
    this.analysisKey = `${lang}|${g}|${opts.fixByteColumns ? 1 : 0}${opts.fixDfgRules ? 1 : 0}${opts.fixSetOrder ? 1 : 0}`;
  }

  /**
   * `remove_comments_and_docstrings` applied `times` times (the reference re-strips the candidate per
   * reference). References (`keep`) are cached at once, since several hypotheses usually meet one reference;
   * hypotheses from their second sight on (distinct ones would only fill the cache).
   */
  strip(code: string, times: number, keep: boolean): string {
    let s = code;
    for (let i = 0; i < times; i++) {
      let next = strippedCache.get(s, this.stripKey);
      if (next === undefined) {
        next =
          this.opts.fixCommentRemoval && this.lang !== 'python'
            ? removeCommentsByTree(s, this.g)
            : removeComments(s, this.lang);
        if (keep) strippedCache.set(s, next, this.stripKey);
        else strippedCache.setIfSeen(s, next, this.stripKey);
      }
      s = next;
    }
    return s;
  }

  analyze(code: string, keep: boolean): Analysis {
    let a = analysisCache.get(code, this.analysisKey);
    if (a) return a;
    a = analyzeText(code, this.lang, this.g, this.opts);
    if (keep) analysisCache.set(code, a, this.analysisKey);
    else analysisCache.setIfSeen(code, a, this.analysisKey);
    return a;
  }
}

/** The syntax subtrees and normalised dataflow of one comment-stripped text (no caching). */
export function analyzeText(code: string, lang: CodeLang, g: SyntaxLang, opts: CodeBleuOptions): Analysis {
  const fields = FIELD_PARENTS[lang === 'typescript' ? 'javascript' : lang];
  // the native parser when built (one call per text), else the WASM runtime
  const native = parseFlat(code, g);
  if (native) {
    const flat = flattenFlat(native.tree, fields);
    const dfg = extractDataflow(code, native.bytes, flat, lang, opts);
    return { subtrees: flat.subtrees, dataflow: normalizeDataflow(dfg) };
  }
  const parsed = parseCode(code, g);
  try {
    const flat = flattenTree(parsed, fields);
    const dfg = extractDataflow(code, parsed.bytes, flat, lang, opts);
    return { subtrees: flat.subtrees, dataflow: normalizeDataflow(dfg) };
  } finally {
    parsed.delete();
  }
}

/** One scored pair: references (one or more) and the hypothesis (prediction). */
export interface CodePair {
  refs: string | string[];
  hyp: string;
}

/** Corpus-level CodeBLEU over pairs (all components accumulate over the corpus, as in the reference). */
export function corpusCodebleu(
  pairs: readonly CodePair[],
  lang: CodeLang,
  opts: CodeBleuOptions = {},
): CodeBleuResult {
  const g = grammar(lang, opts);
  const weights = opts.weights ?? [0.25, 0.25, 0.25, 0.25];
  const tokenize = opts.tokenizer ?? pySplit;
  const items = pairs.map((p) => ({
    refs: (typeof p.refs === 'string' ? [p.refs] : p.refs).map(pyStrip),
    hyp: pyStrip(p.hyp),
  }));
  const samples: TokenSample[] = items.map((it) => ({ hyp: tokenize(it.hyp), refs: it.refs.map(tokenize) }));
  const counts = sampleCounts(samples, KEYWORDS[lang]);
  const ngram = corpusNgramMatch(counts);
  const weighted = corpusWeightedNgramMatch(counts, opts.fixWeightedBrevity === true);

  const analyzer = new Analyzer(lang, g, opts);
  let synMatch = 0;
  let synTotal = 0;
  let dfMatch = 0;
  let dfTotal = 0;
  for (const it of items) {
    it.refs.forEach((ref, j) => {
      // the reference first: a hypothesis equal to it is then a cache hit
      const r = analyzer.analyze(analyzer.strip(ref, 1, true), true);
      const cand = analyzer.analyze(analyzer.strip(it.hyp, j + 1, false), false);
      synMatch += opts.fixSyntaxDirection
        ? countMatches(cand.subtrees, r.subtrees)
        : countMatches(r.subtrees, cand.subtrees);
      synTotal += r.subtrees.length;
      if (r.dataflow.length > 0) {
        const [m, t] = matchDataflow(cand.dataflow, r.dataflow);
        dfMatch += m;
        dfTotal += t;
      }
    });
  }
  const syntax = synTotal === 0 ? 0 : synMatch / synTotal;
  const dataflow = dfTotal === 0 ? 0 : dfMatch / dfTotal;
  const [a, b, c, d] = weights;
  const theta = opts.fixDataflowZero ? dataflow : dataflow || 1;
  return {
    codebleu: a * ngram + b * weighted + c * syntax + d * theta,
    ngram_match_score: ngram,
    weighted_ngram_match_score: weighted,
    syntax_match_score: syntax,
    dataflow_match_score: dataflow,
  };
}

/** CodeBLEU of one prediction against one or more references (synchronous once `initCodeBleu` resolved). */
export function codebleu(
  refs: string | string[],
  hyp: string,
  lang: CodeLang,
  opts: CodeBleuOptions = {},
): CodeBleuResult {
  return corpusCodebleu([{ refs, hyp }], lang, opts);
}
