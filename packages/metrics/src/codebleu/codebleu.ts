/**
 * CodeBLEU (codebleu 0.7.1 behaviour by default): n-gram match, weighted n-gram match, syntax match and
 * dataflow match, each corpus-level, combined as α·ngram + β·weighted + γ·syntax + θ·(dataflow or 1).
 */
import { initSyntax, isLoaded, parseCode, type SyntaxLang } from '@faun/syntax';
import { corpusNgramMatch, corpusWeightedNgramMatch, sampleCounts, type TokenSample } from './bleu.ts';
import { removeComments, removeCommentsByTree } from './comments.ts';
import { extractDataflow, matchDataflow, normalizeDataflow } from './dataflow.ts';
import { FIELD_PARENTS } from './dfg-langs.ts';
import { KEYWORDS } from './keywords.ts';
import { pySplit, pyStrip } from './pystr.ts';
import { flattenTree } from './tree.ts';
import type { CodeBleuOptions, CodeBleuResult, CodeLang } from './types.ts';

/** Every language CodeBLEU supports here. */
export const CODE_LANGS: readonly CodeLang[] = ['python', 'java', 'javascript', 'typescript', 'go'];

function grammarsOf(lang: CodeLang): SyntaxLang[] {
  return lang === 'typescript' ? ['typescript', 'tsx'] : [lang];
}

/** Loads the tree-sitter grammars CodeBLEU needs (all five languages by default); safe to call repeatedly. */
export async function initCodeBleu(langs: readonly CodeLang[] = CODE_LANGS): Promise<void> {
  await initSyntax(langs.flatMap(grammarsOf));
}

function grammar(lang: CodeLang, opts: CodeBleuOptions): SyntaxLang {
  if (!CODE_LANGS.includes(lang)) {
    throw new Error(`CodeBLEU: unsupported language '${lang}' (supported: ${CODE_LANGS.join(', ')})`);
  }
  const g: SyntaxLang = lang === 'typescript' && opts.tsx ? 'tsx' : lang;
  if (!isLoaded(g)) {
    throw new Error(
      `CodeBLEU: grammar for ${lang} not loaded — await initCodeBleu(['${lang}']) before scoring`,
    );
  }
  return g;
}

/** What the syntax and dataflow components need from one comment-stripped string. */
interface Analysis {
  sexps: string[];
  dataflow: string[];
}

class Analyzer {
  private readonly cache = new Map<string, Analysis>();
  private readonly stripped = new Map<string, string>();
  constructor(
    private readonly lang: CodeLang,
    private readonly g: SyntaxLang,
    private readonly opts: CodeBleuOptions,
  ) {}

  /** `remove_comments_and_docstrings` applied `times` times (the reference re-strips the candidate per reference). */
  strip(code: string, times: number): string {
    let s = code;
    for (let i = 0; i < times; i++) {
      let next = this.stripped.get(s);
      if (next === undefined) {
        next =
          this.opts.fixCommentRemoval && this.lang !== 'python'
            ? removeCommentsByTree(s, this.g)
            : removeComments(s, this.lang);
        this.stripped.set(s, next);
      }
      s = next;
    }
    return s;
  }

  analyze(code: string): Analysis {
    let a = this.cache.get(code);
    if (a) return a;
    const parsed = parseCode(code, this.g);
    try {
      const flat = flattenTree(parsed, FIELD_PARENTS[this.lang === 'typescript' ? 'javascript' : this.lang]);
      const dfg = extractDataflow(code, parsed.bytes, flat, this.lang, this.opts);
      a = { sexps: flat.sexps, dataflow: normalizeDataflow(dfg) };
    } finally {
      parsed.delete();
    }
    this.cache.set(code, a);
    return a;
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
      const cand = analyzer.analyze(analyzer.strip(it.hyp, j + 1));
      const r = analyzer.analyze(analyzer.strip(ref, 1));
      if (opts.fixSyntaxDirection) {
        const refSet = new Set(r.sexps);
        for (const s of cand.sexps) if (refSet.has(s)) synMatch++;
      } else {
        const candSet = new Set(cand.sexps);
        for (const s of r.sexps) if (candSet.has(s)) synMatch++;
      }
      synTotal += r.sexps.length;
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
