/**
 * A local fault-localization baseline: ranks the repository tree's files by BM25 (Okapi, k1 = 1.2,
 * b = 0.75) between the issue text and each file's path tokens (split on `/`, `_`, `.`, `-` and
 * camelCase), plus the file's content tokens when a content source is given (`--repo-dir`). No network; deterministic
 * (ties keep tree order).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RepoDirs, repoDirOf, UsageError } from '@faun/kit';
import type { GenerateRequest, GenerateResult, ModelProvider } from '../types.ts';

/** Lower-cased word tokens: splits on non-alphanumerics, snake_case and camelCase. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((t) => t.length > 1);
}

export interface Bm25Doc {
  id: string;
  /** Extra text indexed with the id's tokens (e.g. the file's content). */
  text?: string;
}

export interface Bm25Options {
  k1?: number;
  b?: number;
}

/** Ranks documents by BM25 against `query`; returns ids with scores, best first (stable on ties). */
export function bm25Rank(
  query: string,
  docs: Bm25Doc[],
  opts: Bm25Options = {},
): { id: string; score: number }[] {
  const k1 = opts.k1 ?? 1.2;
  const b = opts.b ?? 0.75;
  const docTokens = docs.map((d) => [...tokenize(d.id), ...(d.text ? tokenize(d.text) : [])]);
  const n = docs.length;
  const avgdl = docTokens.reduce((s, t) => s + t.length, 0) / Math.max(1, n);
  const df = new Map<string, number>();
  const tfs = docTokens.map((toks) => {
    const tf = new Map<string, number>();
    for (const t of toks) tf.set(t, (tf.get(t) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, (df.get(t) ?? 0) + 1);
    return tf;
  });
  const qTerms = [...new Set(tokenize(query))];
  const scored = docs.map((d, i) => {
    const tf = tfs[i]!;
    const dl = docTokens[i]!.length;
    let score = 0;
    for (const q of qTerms) {
      const f = tf.get(q);
      if (!f) continue;
      const nq = df.get(q) ?? 0;
      const idf = Math.log(1 + (n - nq + 0.5) / (nq + 0.5));
      score += (idf * (f * (k1 + 1))) / (f + k1 * (1 - b + (b * dl) / (avgdl || 1)));
    }
    return { id: d.id, score, i };
  });
  scored.sort((x, y) => y.score - x.score || x.i - y.i);
  return scored.map(({ id, score }) => ({ id, score }));
}

/** Where file contents come from: the item's repository and a path → the text, or undefined. */
export type ContentSource = (repo: string, path: string) => string | undefined;

const MAX_CONTENT_CHARS = 64 * 1024;

/**
 * Contents from local checkouts, one per repository (`--repo-dir owner/repo=PATH`; the working tree at
 * the item's base commit is the caller's business). Reads at most 64 KiB per file; memoized.
 */
export function checkoutContents(d: RepoDirs): ContentSource {
  const memo = new Map<string, string | undefined>();
  return (repo, path) => {
    const key = `${repo}\0${path}`;
    if (memo.has(key)) return memo.get(key);
    const checkout = repoDirOf(d, repo);
    const file = checkout === null ? null : join(checkout, path);
    let text: string | undefined;
    try {
      text =
        file !== null && existsSync(file)
          ? readFileSync(file, 'utf8').slice(0, MAX_CONTENT_CHARS)
          : undefined;
    } catch {
      text = undefined;
    }
    memo.set(key, text);
    return text;
  };
}

/**
 * `bm25` answers with the single best path; `bm25:K` with a ranked list of K paths, one per line.
 * Reads the FL item from the request (`req.item`); `contents` adds file contents to the index.
 */
export function createBm25Provider(name: string, contents?: ContentSource): ModelProvider {
  const k = name === '' ? 1 : Number(name);
  if (!Number.isInteger(k) || k < 1)
    throw new UsageError(`bm25: bad list length '${name}'`, { hint: 'use bm25 or bm25:K with K ≥ 1' });
  const id = name === '' ? 'bm25' : `bm25:${k}`;
  return {
    id,
    cacheScope: null,
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const item = req.item;
      if (item?.task !== 'fl')
        throw new UsageError('bm25 is a fault-localization baseline', { hint: 'use it with --task fl' });
      const query = `${item.issue_title}\n${item.issue_body}`;
      const docs = item.tree.map((p) => ({ id: p, text: contents?.(item.repo, p) }));
      const ranked = bm25Rank(query, docs).slice(0, k);
      return { text: ranked.map((r) => r.id).join('\n'), usage: null };
    },
  };
}
