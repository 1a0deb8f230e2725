/**
 * The GraphQL queries the crawler sends (spec §2 A and B). Page sizes are variables, so a stream can
 * shrink a page that timed out and grow it back; nested connections that came back short are
 * re-fetched per node with the last two queries.
 */

const TIMELINE_NODES = `nodes{ __typename
            ... on CrossReferencedEvent{ referencedAt isCrossRepository willCloseTarget
              source{ __typename ... on PullRequest{number merged mergedAt baseRefName repository{nameWithOwner}}
                                 ... on Issue{number repository{nameWithOwner}} }
              target{ __typename ... on Issue{number} ... on PullRequest{number} } }
            ... on ClosedEvent{ createdAt stateReason
              closer{ __typename ... on PullRequest{number merged baseRefName repository{nameWithOwner}}
                                 ... on Commit{oid} } }
            ... on ConnectedEvent{ createdAt isCrossRepository subject{__typename ... on PullRequest{number}} } }`;

const TIMELINE_TYPES = 'itemTypes:[CROSS_REFERENCED_EVENT,CLOSED_EVENT,CONNECTED_EVENT]';

/** Nested page sizes of the bulk queries (what a node's nested connection should hold). */
export const TIMELINE_FIRST = 20;
export const CLOSING_FIRST = 10;
export const FILES_FIRST = 2;

/** Issue side: closed issues with cross-references, closers and manual links (≈1 point per page). */
export const ISSUES_QUERY = `query($owner:String!,$name:String!,$cursor:String,$first:Int!){
  rateLimit{cost remaining resetAt}
  repository(owner:$owner,name:$name){
    defaultBranchRef{name}
    issues(first:$first, after:$cursor, states:[CLOSED], orderBy:{field:CREATED_AT,direction:ASC}){
      pageInfo{hasNextPage endCursor}
      nodes{ number updatedAt
        timelineItems(first:${TIMELINE_FIRST}, ${TIMELINE_TYPES}){
          totalCount pageInfo{hasNextPage endCursor}
          ${TIMELINE_NODES} } } } } }`;

/** Incremental issue side: `filterBy:{since}` keeps issues updated since the last crawl. */
export const ISSUES_SINCE_QUERY = ISSUES_QUERY.replace('$first:Int!', '$first:Int!,$since:DateTime').replace(
  'states:[CLOSED],',
  'states:[CLOSED], filterBy:{since:$since},',
);

const PR_FIELDS = `number merged mergedAt updatedAt baseRefName baseRefOid headRefOid changedFiles additions deletions
        author{__typename login} authorAssociation
        closingIssuesReferences(first:$closing){ totalCount nodes{ number repository{nameWithOwner} } }
        files(first:${FILES_FIRST}){ totalCount nodes{ path changeType additions deletions } }`;

/** PR side: merged PRs with GitHub's closing references and the first files (≈2 points per 100 PRs). */
export const PULLS_QUERY = `query($owner:String!,$name:String!,$cursor:String,$first:Int!,$closing:Int!){
  rateLimit{cost remaining resetAt}
  repository(owner:$owner,name:$name){
    defaultBranchRef{name}
    pullRequests(first:$first, after:$cursor, states:[MERGED], orderBy:{field:CREATED_AT,direction:ASC}){
      pageInfo{hasNextPage endCursor}
      nodes{ ${PR_FIELDS} } } } }`;

/**
 * Incremental PR side: `pullRequests` has no `since`, so pages go by `updatedAt` descending and the
 * stream stops at the first PR older than `since`.
 */
export const PULLS_UPDATED_QUERY = PULLS_QUERY.replace(
  'orderBy:{field:CREATED_AT,direction:ASC}',
  'orderBy:{field:UPDATED_AT,direction:DESC}',
);

/** One PR again (its nested connections came back short). */
export const PULL_QUERY = `query($owner:String!,$name:String!,$number:Int!,$closing:Int!){
  rateLimit{cost remaining resetAt}
  repository(owner:$owner,name:$name){
    pullRequest(number:$number){ ${PR_FIELDS} } } }`;

/** One issue's timeline items, paged (its nested connection came back short or has more pages). */
export const ISSUE_TIMELINE_QUERY = `query($owner:String!,$name:String!,$number:Int!,$first:Int!,$after:String){
  rateLimit{cost remaining resetAt}
  repository(owner:$owner,name:$name){
    issue(number:$number){ number
      timelineItems(first:$first, after:$after, ${TIMELINE_TYPES}){
        totalCount pageInfo{hasNextPage endCursor}
        ${TIMELINE_NODES} } } } }`;
