/**
 * CodeXGLUE `smooth_bleu` (Code-Text `bleu.py`, also used by CodeT5): `splitPuncts(s.strip().lower())`,
 * NIST normalisation, shortest reference length, add-one smoothing for orders 2–4. Per-sentence values
 * in [0, 1]; CodeXGLUE reports the per-sentence mean ×100.
 * @module
 */
import { FLOAT_MIN, PY_WORD_CLASS, PY_WS_CLASS, pySplit, pyStrip } from '../py.ts';
import { applyMtevalRules } from './sacre.ts';

const PUNCT_SPLIT = new RegExp(`[${PY_WORD_CLASS}]+|[^${PY_WS_CLASS}${PY_WORD_CLASS}]`, 'gu');

/** CodeXGLUE `splitPuncts`: `' '.join(re.findall(r"[\w]+|[^\s\w]", s))`. */
export function splitPuncts(s: string): string {
  return (s.match(PUNCT_SPLIT) ?? []).join(' ');
}

/** CodeXGLUE / NIST mteval `normalize` (lowercasing, no `nonorm`): returns the tokens. */
export function nistNormalize(s: string): string[] {
  let t = s.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ');
  t = t.replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&amp;', '&');
  t = ` ${t} `.toLowerCase();
  return pySplit(applyMtevalRules(t));
}

function countNgrams(words: string[], n: number): Map<string, number> {
  const m = new Map<string, number>();
  for (let k = 1; k <= n; k++)
    for (let i = 0; i + k <= words.length; i++) {
      const g = `${k}\u0000${words.slice(i, i + k).join('\u0001')}`;
      m.set(g, (m.get(g) ?? 0) + 1);
    }
  return m;
}

/** CodeXGLUE `bleu(refs, candidate)[0]` on already-prepared strings (smooth = 1). */
export function cxgBleuPrepared(refs: readonly string[], candidate: string, n = 4): number {
  const refToks = refs.map(nistNormalize);
  const maxCounts = new Map<string, number>();
  for (const r of refToks)
    for (const [g, c] of countNgrams(r, n)) if (c > (maxCounts.get(g) ?? 0)) maxCounts.set(g, c);
  const test = nistNormalize(candidate);
  const reflen = Math.min(...refToks.map((r) => r.length));
  const correct = new Array<number>(n).fill(0);
  for (const [g, c] of countNgrams(test, n)) {
    const k = Number(g.slice(0, g.indexOf('\u0000')));
    correct[k - 1]! += Math.min(maxCounts.get(g) ?? 0, c);
  }
  let logbleu = 0;
  for (let k = 0; k < n; k++) {
    const guess = Math.max(test.length - k, 0);
    const add = k > 0 ? 1 : 0;
    logbleu += Math.log(correct[k]! + add + FLOAT_MIN) - Math.log(guess + add + FLOAT_MIN);
  }
  logbleu /= n;
  const bp = Math.min(0, 1 - (reflen + 1) / (test.length + 1));
  return Math.exp(logbleu + bp);
}

/** CodeXGLUE smooth BLEU of one prediction against its reference(s), in [0, 1]. */
export function smoothBleu(hyp: string, ref: string | readonly string[]): number {
  const refs = typeof ref === 'string' ? [ref] : ref;
  const prep = (s: string) => splitPuncts(pyStrip(s).toLowerCase());
  return cxgBleuPrepared(refs.map(prep), prep(hyp));
}
