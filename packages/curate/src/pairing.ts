/**
 * Issue ↔ PR pairing over one repository's crawled entries (pure). A candidate fix pair needs a
 * closing keyword in the PR's title/body naming a same-repository issue, and a CrossReferencedEvent on
 * the issue's timeline whose source is that PR. Merge state and base branch are checked later as named
 * funnel steps (`notMerged`, `notDefaultBranch`) so the funnel shows what they remove.
 * @module
 */
import type { CrossRef, FixPair, RawEntry } from '@faun/schema';
import { extractRefs, sameRepo } from './refs.ts';

/** Evidence for one (issue, PR) link, as stored in {@link FixPair}. */
export type Evidence = FixPair['evidence'];

/** A linked (issue, PR) of the same repository with its evidence. */
export interface LinkCandidate {
  repo: string;
  issue: number;
  pr: number;
  evidence: Evidence;
  /** The closing keyword was written with a colon (`Fixes: #12`). */
  viaColon: boolean;
}

/** The PR text GitHub scans for closing keywords. */
export function prText(pr: RawEntry): string {
  return `${pr.title}\n${pr.body ?? ''}`;
}

/**
 * Every (issue, PR) link in `entries` of `repo`, from text references in either direction and from
 * cross-reference events, with which evidence held. Sorted by issue, then PR.
 */
export function findLinks(repo: string, entries: RawEntry[], crossrefs: CrossRef[]): LinkCandidate[] {
  const byNumber = new Map<number, RawEntry>();
  for (const e of entries) if (sameRepo(e.repo, repo)) byNumber.set(e.number, e);
  const links = new Map<string, LinkCandidate>();
  const get = (issue: number, pr: number): LinkCandidate | null => {
    const i = byNumber.get(issue);
    const p = byNumber.get(pr);
    if (i?.kind !== 'issue' || p?.kind !== 'pr') return null;
    const key = `${issue}:${pr}`;
    let l = links.get(key);
    if (!l) {
      const closing = p.pr?.closing_issues;
      l = {
        repo,
        issue,
        pr,
        viaColon: false,
        evidence: {
          text_reference: false,
          closing_keyword: false,
          cross_ref_event: false,
          github_closing: closing == null ? null : closing.includes(issue),
        },
      };
      links.set(key, l);
    }
    return l;
  };
  for (const e of byNumber.values()) {
    const refs = extractRefs(e.kind === 'pr' ? prText(e) : `${e.title}\n${e.body ?? ''}`, repo);
    for (const r of refs) {
      if (!sameRepo(r.repo, repo)) continue;
      const l = e.kind === 'pr' ? get(r.number, e.number) : get(e.number, r.number);
      if (!l) continue;
      l.evidence.text_reference = true;
      if (e.kind === 'pr' && r.closing) {
        l.evidence.closing_keyword = true;
        l.viaColon ||= r.viaColon;
      }
    }
  }
  for (const x of crossrefs) {
    if (!sameRepo(x.target_repo, repo) || !sameRepo(x.source_repo, repo) || x.source_kind !== 'pr') continue;
    const l = get(x.target_number, x.source_number);
    if (!l) continue;
    l.evidence.cross_ref_event = true;
    if (x.will_close_target != null)
      l.evidence.github_closing = (l.evidence.github_closing ?? false) || x.will_close_target;
  }
  return [...links.values()].sort((a, b) => a.issue - b.issue || a.pr - b.pr);
}

/** True when a link qualifies as a candidate fix pair (keyword + cross-reference event). */
export function isFixCandidate(l: LinkCandidate): boolean {
  return l.evidence.closing_keyword && l.evidence.cross_ref_event;
}

/** Agreement of the keyword rule with GitHub's own closing data, over links where GitHub's is known. */
export interface Agreement {
  /** Links where GitHub's closing data was available. */
  compared: number;
  /** Links without GitHub closing data. */
  unknown: number;
  both: number;
  oursOnly: number;
  githubOnly: number;
  neither: number;
  /** (both + neither) / compared, or null when nothing was compared. */
  rate: number | null;
  /** Of the ours-only disagreements, how many used the colon form. */
  oursOnlyViaColon: number;
}

/** Confusion table of our closing-keyword evidence against GitHub's closingIssuesReferences/willCloseTarget. */
export function agreement(links: LinkCandidate[]): Agreement {
  const a: Agreement = {
    compared: 0,
    unknown: 0,
    both: 0,
    oursOnly: 0,
    githubOnly: 0,
    neither: 0,
    rate: null,
    oursOnlyViaColon: 0,
  };
  for (const l of links) {
    const gh = l.evidence.github_closing;
    if (gh === null) {
      a.unknown++;
      continue;
    }
    a.compared++;
    const ours = l.evidence.closing_keyword;
    if (ours && gh) a.both++;
    else if (ours) {
      a.oursOnly++;
      if (l.viaColon) a.oursOnlyViaColon++;
    } else if (gh) a.githubOnly++;
    else a.neither++;
  }
  a.rate = a.compared ? (a.both + a.neither) / a.compared : null;
  return a;
}

/** Merges agreement tables (per repository → total). */
export function sumAgreement(list: Agreement[]): Agreement {
  const t = agreement([]);
  for (const a of list) {
    t.compared += a.compared;
    t.unknown += a.unknown;
    t.both += a.both;
    t.oursOnly += a.oursOnly;
    t.githubOnly += a.githubOnly;
    t.neither += a.neither;
    t.oursOnlyViaColon += a.oursOnlyViaColon;
  }
  t.rate = t.compared ? (t.both + t.neither) / t.compared : null;
  return t;
}
