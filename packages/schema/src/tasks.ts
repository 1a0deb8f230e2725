/** Curated records: fix pairs and the three FAUN-Eval task items. */
import { z } from 'zod';
import { Language, RepoName, version } from './common.ts';

/** Which evidence linked an issue to the PR that fixed it. */
export const PairEvidence = z.object({
  text_reference: z.boolean(),
  closing_keyword: z.boolean(),
  cross_ref_event: z.boolean(),
  /** GitHub's own closingIssuesReferences / willCloseTarget, null when the crawl lacks them. */
  github_closing: z.boolean().nullable(),
});

/** The semantic check's verdict on a pair: the LLM label and the two human reviewers' decisions. */
export const SemanticReview = z.object({
  /** `clear` / `unclear` from the model, `error` when unreadable, `skipped` when no model ran. */
  llm: z.enum(['clear', 'unclear', 'error', 'skipped']),
  reason: z.string(),
  model: z.string().nullable(),
  reviewer_1: z.boolean().nullable(),
  reviewer_2: z.boolean().nullable(),
  /** The keep rule applied (`both`, `llm+one`, `any-two`, …), null when no review was imported. */
  rule: z.string().nullable(),
  kept: z.boolean(),
});
export type SemanticReview = z.infer<typeof SemanticReview>;

export const FixPair = z.object({
  v: version(1),
  repo: RepoName,
  issue: z.number().int().positive(),
  pr: z.number().int().positive(),
  evidence: PairEvidence,
  /** Set by `faun curate` once the semantic step ran (or was skipped). */
  semantic: SemanticReview.nullable().optional(),
});
export type FixPair = z.infer<typeof FixPair>;

export const Turn = z.object({
  role: z.enum(['questioner', 'responder']),
  author_association: z.string().nullable(),
  content: z.string(),
});
export type Turn = z.infer<typeof Turn>;

const itemBase = {
  v: version(1),
  /** Stable id: `owner/repo#issue` for curated items, the SWE-bench instance_id for imported ones. */
  id: z.string().min(1),
  repo: RepoName,
  language: Language,
  issue_number: z.number().int().nullable(),
  issue_title: z.string(),
  issue_body: z.string(),
};

/** QA: the issue report as the questioner's turn; gold = the maintainer's reply. */
export const QaItem = z.object({
  ...itemBase,
  task: z.literal('qa'),
  question_association: z.string().nullable(),
  /** Earlier turns after the report (the conversation so far). */
  context: z.array(Turn).default([]),
  answer: z.string(),
  answer_association: z.string().nullable(),
});
export type QaItem = z.infer<typeof QaItem>;

/** Fault localization: issue + pruned repository tree; gold = the changed file's path. */
export const FlItem = z.object({
  ...itemBase,
  task: z.literal('fl'),
  base_commit: z.string().nullable(),
  /** Repository file paths at the base commit, pruned, sorted. */
  tree: z.array(z.string()),
  gold_path: z.string(),
});
export type FlItem = z.infer<typeof FlItem>;

/** Code editing: issue + PR text + the pre-change file; gold = SEARCH/REPLACE blocks. */
export const CeItem = z.object({
  ...itemBase,
  task: z.literal('ce'),
  base_commit: z.string().nullable(),
  pr_number: z.number().int().nullable(),
  pr_title: z.string(),
  pr_body: z.string(),
  path: z.string(),
  file_before: z.string(),
  file_after: z.string(),
  /** Gold edit as SEARCH/REPLACE blocks; applying it to file_before gives file_after exactly. */
  gold_patch: z.string(),
});
export type CeItem = z.infer<typeof CeItem>;

export const TaskItem = z.discriminatedUnion('task', [QaItem, FlItem, CeItem]);
export type TaskItem = z.infer<typeof TaskItem>;
