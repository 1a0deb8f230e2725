/**
 * The aggregate queries behind `counts()`, `stageCounts()` and `faun stats`.
 * @module
 */

/** Per-repository counts of the crawl and of stored pairs. */
export interface RepoCounts {
  repo: string;
  issues_open: number;
  issues_closed: number;
  prs_open: number;
  prs_closed: number;
  prs_merged: number;
  comments: number;
  events: number;
  crossrefs: number;
  pr_files: number;
  pairs: number;
}

/** Per-repository sizes of the curation stages (the `v_*` views). */
export interface StageCounts {
  repo: string;
  entries: number;
  issues: number;
  closed_issues: number;
  prs: number;
  merged_prs: number;
  merged_default_prs: number;
  /** Distinct (issue, PR) candidate pairs. */
  candidate_pairs: number;
  /** Closed issues with at least one candidate PR. */
  issues_with_candidate: number;
  /** Closed issues with exactly one candidate PR. */
  issues_one_to_one: number;
  pairs: number;
}

export function countsQuery(): string {
  return `
    WITH e AS (
      SELECT repo,
             count(*) FILTER (WHERE kind = 'issue' AND state = 'open') AS issues_open,
             count(*) FILTER (WHERE kind = 'issue' AND state = 'closed') AS issues_closed,
             count(*) FILTER (WHERE kind = 'pr' AND state = 'open') AS prs_open,
             count(*) FILTER (WHERE kind = 'pr' AND state = 'closed') AS prs_closed,
             count(*) FILTER (WHERE kind = 'pr' AND pr_merged) AS prs_merged
        FROM entries GROUP BY repo),
    c AS (SELECT repo, count(*) AS n FROM comments GROUP BY repo),
    ev AS (SELECT repo, count(*) AS n FROM events GROUP BY repo),
    x AS (SELECT target_repo AS repo, count(*) AS n FROM crossrefs GROUP BY target_repo),
    f AS (SELECT repo, count(*) AS n FROM pr_files GROUP BY repo),
    p AS (SELECT repo, count(*) AS n FROM pairs GROUP BY repo),
    r AS (SELECT repo FROM e UNION SELECT repo FROM c UNION SELECT repo FROM ev UNION SELECT repo FROM x
          UNION SELECT repo FROM p UNION SELECT repo FROM repos)
    SELECT r.repo,
           coalesce(e.issues_open, 0) AS issues_open, coalesce(e.issues_closed, 0) AS issues_closed,
           coalesce(e.prs_open, 0) AS prs_open, coalesce(e.prs_closed, 0) AS prs_closed,
           coalesce(e.prs_merged, 0) AS prs_merged,
           coalesce(c.n, 0) AS comments, coalesce(ev.n, 0) AS events, coalesce(x.n, 0) AS crossrefs,
           coalesce(f.n, 0) AS pr_files, coalesce(p.n, 0) AS pairs
      FROM r LEFT JOIN e USING (repo) LEFT JOIN c USING (repo) LEFT JOIN ev USING (repo)
             LEFT JOIN x USING (repo) LEFT JOIN f USING (repo) LEFT JOIN p USING (repo)
     ORDER BY r.repo`;
}

/** The stage sizes per repository; with `oneRepo`, `$1` is the repository. */
export function funnelStagesQuery(oneRepo: boolean): string {
  const where = oneRepo ? 'WHERE repo = $1' : '';
  return `
    WITH e AS (
      SELECT repo, count(*) AS entries,
             count(*) FILTER (WHERE kind = 'issue' AND transferred_to IS NULL) AS issues,
             count(*) FILTER (WHERE kind = 'issue' AND transferred_to IS NULL AND state = 'closed') AS closed_issues,
             count(*) FILTER (WHERE kind = 'pr') AS prs,
             count(*) FILTER (WHERE kind = 'pr' AND pr_merged) AS merged_prs
        FROM entries ${where} GROUP BY repo),
    md AS (SELECT repo, count(*) AS n FROM v_merged_default_prs ${where} GROUP BY repo),
    cp AS (SELECT repo, issue, count(*) AS prs FROM v_candidate_pairs ${where} GROUP BY repo, issue),
    c AS (SELECT repo, sum(prs) AS candidate_pairs, count(*) AS issues_with_candidate,
                 count(*) FILTER (WHERE prs = 1) AS issues_one_to_one FROM cp GROUP BY repo),
    p AS (SELECT repo, count(*) AS n FROM pairs ${where} GROUP BY repo)
    SELECT e.repo, e.entries, e.issues, e.closed_issues, e.prs, e.merged_prs,
           coalesce(md.n, 0) AS merged_default_prs,
           coalesce(c.candidate_pairs, 0)::BIGINT AS candidate_pairs,
           coalesce(c.issues_with_candidate, 0) AS issues_with_candidate,
           coalesce(c.issues_one_to_one, 0) AS issues_one_to_one,
           coalesce(p.n, 0) AS pairs
      FROM e LEFT JOIN md USING (repo) LEFT JOIN c USING (repo) LEFT JOIN p USING (repo)
     ORDER BY e.repo`;
}
