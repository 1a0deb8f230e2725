/**
 * Issue/PR references in GitHub text: full URLs, `#N`, `GH-N`, `owner/repo#N`, and the closing form
 * `KEYWORD[:] REF` (close/closes/closed, fix/fixes/fixed, resolve/resolves/resolved, any case).
 * References inside HTML comments and code are ignored because GitHub does not autolink there.
 * @module
 */
import { stripNonProse } from './markdown.ts';

/** Which syntax a reference used. */
export type RefForm = 'url' | 'hash' | 'gh' | 'xrepo';

/** One reference found in a text, resolved against the repository the text belongs to. */
export interface Ref {
  /** `owner/name` the reference points into (the text's own repository for `#N` / `GH-N`). */
  repo: string;
  number: number;
  form: RefForm;
  /** Preceded by a closing keyword. */
  closing: boolean;
  /** The closing keyword was followed by a colon (`Fixes: #12`). */
  viaColon: boolean;
  /** The keyword as written (lower-cased), when closing. */
  keyword: string | null;
  /** For URLs: `issues` or `pull`. */
  urlKind: 'issues' | 'pull' | null;
}

const OWNER = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})';
const NAME = '[A-Za-z0-9._-]{1,100}';
const URL_SRC = String.raw`https?:\/\/(?:www\.)?github\.com\/(${OWNER})\/(${NAME})\/(issues|pull)\/(\d+)(?![\d/])`;
const XREPO_SRC = String.raw`(?<![\w\/.-])(${OWNER})\/(${NAME})#(\d+)\b`;
const HASH_SRC = String.raw`(?<![\w&\/#])#(\d+)\b`;
const GH_SRC = String.raw`(?<![\w-])GH-(\d+)\b`;
const KW = '(close[sd]?|fix(?:e[sd])?|resolve[sd]?)';

const URL_REF = new RegExp(URL_SRC, 'gi');
const XREPO_REF = new RegExp(XREPO_SRC, 'g');
const HASH_REF = new RegExp(HASH_SRC, 'g');
const GH_REF = new RegExp(GH_SRC, 'gi');
/** `KEYWORD[:] <ref>` where the ref starts right after the whitespace. */
const CLOSING = new RegExp(
  String.raw`(?<![\w-])${KW}\b(:?)\s+(?=(?:${URL_SRC})|(?:(?:${OWNER})\/(?:${NAME})#\d+\b)|(?:#\d+\b)|(?:GH-\d+\b))`,
  'gi',
);

interface Located extends Ref {
  index: number;
}

/**
 * Extracts every reference from `text` (title, body or comment) of an entry in `repo`. Duplicates are
 * kept once per (repo, number), preferring the closing occurrence. Order: by first position.
 */
export function extractRefs(text: string | null | undefined, repo: string): Ref[] {
  if (!text) return [];
  const prose = stripNonProse(text);
  const found: Located[] = [];
  const taken: Array<[number, number]> = [];
  const overlaps = (s: number, e: number) => taken.some(([a, b]) => s < b && e > a);
  const add = (m: RegExpExecArray, ref: Omit<Ref, 'closing' | 'viaColon' | 'keyword'>) => {
    const end = m.index + m[0].length;
    if (overlaps(m.index, end)) return;
    taken.push([m.index, end]);
    found.push({ ...ref, closing: false, viaColon: false, keyword: null, index: m.index });
  };
  for (const m of prose.matchAll(URL_REF))
    add(m, {
      repo: `${m[1]}/${m[2]}`,
      number: Number(m[4]),
      form: 'url',
      urlKind: m[3]?.toLowerCase() === 'pull' ? 'pull' : 'issues',
    });
  for (const m of prose.matchAll(XREPO_REF))
    add(m, { repo: `${m[1]}/${m[2]}`, number: Number(m[3]), form: 'xrepo', urlKind: null });
  for (const m of prose.matchAll(HASH_REF))
    add(m, { repo, number: Number(m[1]), form: 'hash', urlKind: null });
  for (const m of prose.matchAll(GH_REF)) add(m, { repo, number: Number(m[1]), form: 'gh', urlKind: null });

  for (const m of prose.matchAll(CLOSING)) {
    const start = m.index + m[0].length;
    const target = found.find((r) => r.index === start);
    if (!target) continue;
    target.closing = true;
    target.viaColon = m[2] === ':';
    target.keyword = (m[1] ?? '').toLowerCase();
  }
  found.sort((a, b) => a.index - b.index);
  const byKey = new Map<string, Located>();
  for (const r of found) {
    const key = `${r.repo.toLowerCase()}#${r.number}`;
    const prev = byKey.get(key);
    if (!prev || (!prev.closing && r.closing)) byKey.set(key, prev ? { ...r, index: prev.index } : r);
  }
  return [...byKey.values()].sort((a, b) => a.index - b.index).map(({ index: _index, ...ref }) => ref);
}

/** True when two `owner/name` strings name the same repository (GitHub names are case-insensitive). */
export function sameRepo(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** The issue numbers of `repo` that `text` closes with a keyword (cross-repository ones excluded). */
export function closingIssueNumbers(text: string | null | undefined, repo: string): number[] {
  return extractRefs(text, repo)
    .filter((r) => r.closing && sameRepo(r.repo, repo))
    .map((r) => r.number);
}
