/** Raw GitHub records as the crawler stores them (one place defines each field). */
import { z } from 'zod';
import { IsoTime, RepoName, version } from './common.ts';

/** A GitHub account; `null` in the records below means a deleted ("ghost") user. */
export const Actor = z.object({
  login: z.string(),
  /** REST `type` (`User`, `Bot`, `Organization`, `Mannequin`) or GraphQL `__typename`. */
  type: z.string(),
});
export type Actor = z.infer<typeof Actor>;

export const AuthorAssociation = z.enum([
  'COLLABORATOR',
  'CONTRIBUTOR',
  'FIRST_TIMER',
  'FIRST_TIME_CONTRIBUTOR',
  'MANNEQUIN',
  'MEMBER',
  'NONE',
  'OWNER',
]);

export const PrFile = z.object({
  filename: z.string(),
  status: z.string(),
  additions: z.number().int(),
  deletions: z.number().int(),
  patch: z.string().nullable().optional(),
  previous_filename: z.string().nullable().optional(),
});
export type PrFile = z.infer<typeof PrFile>;

/** PR-specific part of an entry; present only when `kind === 'pr'`. */
export const PullInfo = z.object({
  merged: z.boolean(),
  merged_at: IsoTime.nullable(),
  base_ref: z.string(),
  base_sha: z.string().nullable().optional(),
  head_sha: z.string().nullable().optional(),
  merge_commit_sha: z.string().nullable().optional(),
  changed_files: z.number().int().nullable().optional(),
  additions: z.number().int().nullable().optional(),
  deletions: z.number().int().nullable().optional(),
  /** GitHub's own `closingIssuesReferences` (issue numbers in this repo), when crawled. */
  closing_issues: z.array(z.number().int()).nullable().optional(),
  /** The first changed files (GraphQL `files(first:…)`) or all of them (REST PR files), when crawled. */
  files: z.array(PrFile).nullable().optional(),
});
export type PullInfo = z.infer<typeof PullInfo>;

/** One issue or pull request of a repository. */
export const RawEntry = z.object({
  v: version(1),
  repo: RepoName,
  number: z.number().int().positive(),
  kind: z.enum(['issue', 'pr']),
  node_id: z.string().nullable().optional(),
  title: z.string(),
  body: z.string().nullable(),
  state: z.enum(['open', 'closed']),
  state_reason: z.string().nullable().optional(),
  author: Actor.nullable(),
  author_association: z.string().nullable().optional(),
  labels: z.array(z.string()).default([]),
  locked: z.boolean().default(false),
  comments_count: z.number().int().default(0),
  created_at: IsoTime,
  updated_at: IsoTime,
  closed_at: IsoTime.nullable().optional(),
  /** Set when a single GET answered 301 to another repository (the issue was transferred there). */
  transferred_to: z.string().nullable().optional(),
  /** The repository's default branch at crawl time. */
  default_branch: z.string().nullable().optional(),
  pr: PullInfo.nullable().optional(),
});
export type RawEntry = z.infer<typeof RawEntry>;

export const Comment = z.object({
  v: version(1),
  repo: RepoName,
  number: z.number().int().positive(),
  id: z.number().int(),
  author: Actor.nullable(),
  author_association: z.string().nullable().optional(),
  body: z.string(),
  created_at: IsoTime,
  updated_at: IsoTime.optional(),
});
export type Comment = z.infer<typeof Comment>;

/** A timeline/issue event (closed, labeled, cross-referenced, connected, …). */
export const IssueEvent = z.object({
  v: version(1),
  repo: RepoName,
  number: z.number().int().positive(),
  id: z.string(),
  event: z.string(),
  actor: Actor.nullable(),
  created_at: IsoTime,
  /** On `closed`: the commit that closed it through a keyword. */
  commit_id: z.string().nullable().optional(),
  /** On `closed` from GraphQL: the closer (a PR or commit), as `owner/repo#N` for PRs. */
  closer: z.string().nullable().optional(),
});
export type IssueEvent = z.infer<typeof IssueEvent>;

/**
 * A cross-reference: entry `source` mentioned entry `target` (GitHub's CrossReferencedEvent, recorded
 * on the target's timeline). `will_close_target` is GraphQL's willCloseTarget (null when REST-only).
 */
export const CrossRef = z.object({
  v: version(1),
  target_repo: RepoName,
  target_number: z.number().int().positive(),
  source_repo: RepoName,
  source_number: z.number().int().positive(),
  source_kind: z.enum(['issue', 'pr']),
  will_close_target: z.boolean().nullable(),
  created_at: IsoTime,
  /** `cross-referenced` or `connected` (a manual link in the UI). */
  via: z.enum(['cross-referenced', 'connected']).default('cross-referenced'),
});
export type CrossRef = z.infer<typeof CrossRef>;
