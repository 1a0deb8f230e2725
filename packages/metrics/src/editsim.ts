/**
 * Edit similarity variants on code points: the Indel ratio (rapidfuzz `fuzz.ratio` / python-Levenshtein
 * `ratio`; the project's EditSim), 1 − Levenshtein / max length, and fuzzywuzzy's rounded integer
 * `fuzz.ratio` with either backend.
 * @module
 */
import { difflibRatio } from './distance/difflib.ts';
import { lcsLength, levenshtein } from './distance/lcs.ts';
import { codePoints, roundHalfEven } from './py.ts';

/** Indel ratio 2·LCS/(len a + len b) in [0, 1]; 1 when both are empty (rapidfuzz). The default EditSim. */
export function indelRatio(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  const lensum = ca.length + cb.length;
  if (lensum === 0) return 1;
  const dist = lensum - 2 * lcsLength(ca, cb);
  return 1 - dist / lensum;
}

/** The project's EditSim: the Indel ratio in [0, 1]. */
export const editSim = indelRatio;

/** Levenshtein distance (unit costs) in code points. */
export function levenshteinDistance(a: string, b: string): number {
  return levenshtein(codePoints(a), codePoints(b));
}

/**
 * 1 − levenshtein(a, b) / max(len a, len b). Python raises ZeroDivisionError for two empty strings;
 * this returns 1 there (identical inputs).
 */
export function levenshteinSim(a: string, b: string): number {
  const ca = codePoints(a);
  const cb = codePoints(b);
  const max = Math.max(ca.length, cb.length);
  if (max === 0) return 1;
  return 1 - levenshtein(ca, cb) / max;
}

/**
 * fuzzywuzzy 0.18 `fuzz.ratio(a, b)`: an integer 0–100 (Python round-half-even). Checks in order:
 * equal strings → 100, either empty → 0. `backend` 'levenshtein' (python-Levenshtein installed: Indel
 * ratio) or 'difflib' (SequenceMatcher with autojunk).
 */
export function fuzzRatio(a: string, b: string, backend: 'levenshtein' | 'difflib' = 'levenshtein'): number {
  if (a === b) return 100;
  if (a.length === 0 || b.length === 0) return 0;
  const ca = codePoints(a);
  const cb = codePoints(b);
  let r: number;
  if (backend === 'difflib') r = difflibRatio(ca, cb);
  else {
    const lensum = ca.length + cb.length;
    r = (lensum - (lensum - 2 * lcsLength(ca, cb))) / lensum;
  }
  return roundHalfEven(100 * r);
}
