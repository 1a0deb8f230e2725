/** The GraphQL queries the crawler sends (spec §2 A and B). */

/** Issue side: closed issues with cross-references, closers and manual links (≈1 point per 100 issues). */
export const ISSUES_QUERY = `query($owner:String!,$name:String!,$cursor:String){
  rateLimit{cost remaining resetAt}
  repository(owner:$owner,name:$name){
    defaultBranchRef{name}
    issues(first:100, after:$cursor, states:[CLOSED], orderBy:{field:CREATED_AT,direction:ASC}){
      pageInfo{hasNextPage endCursor}
      nodes{ number
        timelineItems(first:20, itemTypes:[CROSS_REFERENCED_EVENT,CLOSED_EVENT,CONNECTED_EVENT]){
          totalCount pageInfo{hasNextPage endCursor}
          nodes{ __typename
            ... on CrossReferencedEvent{ referencedAt isCrossRepository willCloseTarget
              source{ __typename ... on PullRequest{number merged mergedAt baseRefName repository{nameWithOwner}}
                                 ... on Issue{number repository{nameWithOwner}} }
              target{ __typename ... on Issue{number} ... on PullRequest{number} } }
            ... on ClosedEvent{ createdAt stateReason
              closer{ __typename ... on PullRequest{number merged baseRefName repository{nameWithOwner}}
                                 ... on Commit{oid} } }
            ... on ConnectedEvent{ createdAt isCrossRepository subject{__typename ... on PullRequest{number}} } } } } } } }`;

/** PR side: merged PRs with GitHub's closing references and the first files (≈2 points per 100 PRs). */
export const PULLS_QUERY = `query($owner:String!,$name:String!,$cursor:String){
  rateLimit{cost remaining resetAt}
  repository(owner:$owner,name:$name){
    defaultBranchRef{name}
    pullRequests(first:100, after:$cursor, states:[MERGED], orderBy:{field:CREATED_AT,direction:ASC}){
      pageInfo{hasNextPage endCursor}
      nodes{ number merged mergedAt baseRefName baseRefOid headRefOid changedFiles additions deletions
        author{__typename login} authorAssociation
        closingIssuesReferences(first:10){ totalCount nodes{ number repository{nameWithOwner} } }
        files(first:2){ totalCount nodes{ path changeType additions deletions } } } } } }`;
