/**
 * Exact match variants: raw equality, after Python `strip()`, and on `str.split()` tokens (RepoBench).
 * @module
 */
import { pySplit, pyStrip } from './py.ts';

export type ExactMatchMode = 'raw' | 'strip' | 'split';

/** 1 when `hyp` equals `ref` under `mode` (default 'raw'), else 0. */
export function exactMatch(hyp: string, ref: string, mode: ExactMatchMode = 'raw'): 0 | 1 {
  if (mode === 'raw') return hyp === ref ? 1 : 0;
  if (mode === 'strip') return pyStrip(hyp) === pyStrip(ref) ? 1 : 0;
  const a = pySplit(hyp);
  const b = pySplit(ref);
  return a.length === b.length && a.every((t, i) => t === b[i]) ? 1 : 0;
}
