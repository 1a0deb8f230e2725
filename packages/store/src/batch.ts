/**
 * What the crawler hands the store in one transaction, and its validation: a bad record fails the whole
 * batch with an error naming the list, the index, the record and the field.
 * @module
 */
import { InputError } from '@faun/kit';
import { Comment, CrossRef, IssueEvent, PrFile, RawEntry, RepoName } from '@faun/schema';
import { z } from 'zod';
import { fastEntry } from './fastcheck.ts';

/** Crawl progress of one stream of one repository (e.g. `issues`, `comments`, `pulls`, `graphql-pairs`). */
export const Checkpoint = z.object({
  repo: RepoName,
  stream: z.string().min(1),
  /** The next page to fetch (a URL or GraphQL cursor); null when starting or done. */
  cursor: z.string().nullable(),
  done: z.boolean(),
  /** When the checkpoint was written (ISO time). Not part of the content hash. */
  updated_at: z.string().min(10),
  requests: z.number().int().nonnegative().optional(),
  items: z.number().int().nonnegative().optional(),
});
export type Checkpoint = z.infer<typeof Checkpoint>;

/** Repository metadata (`GET /repos/{o}/{r}`). */
export const RepoMeta = z.object({
  repo: RepoName,
  default_branch: z.string().nullable(),
  language: z.string().nullable().optional(),
  stars: z.number().int().nullable().optional(),
  github_id: z.number().int().nullable().optional(),
  /** The name the crawl asked for when GitHub answered 301 (the repository was renamed). */
  renamed_from: z.string().nullable().optional(),
  fetched_at: z.string().nullable().optional(),
});
export type RepoMeta = z.infer<typeof RepoMeta>;

/** The changed files of one PR; replaces the PR's stored file list. */
export const PrFileList = z.object({
  repo: RepoName,
  number: z.number().int().positive(),
  files: z.array(PrFile),
});
export type PrFileList = z.infer<typeof PrFileList>;

/** One page of crawl results: all rows and the checkpoint commit together or not at all. */
export interface CrawlBatch {
  entries?: RawEntry[];
  comments?: Comment[];
  events?: IssueEvent[];
  crossrefs?: CrossRef[];
  prFiles?: PrFileList[];
  repos?: RepoMeta[];
  checkpoint?: Checkpoint | Checkpoint[];
}

/** A batch after validation (defaults applied). */
export interface ValidBatch {
  entries: RawEntry[];
  comments: Comment[];
  events: IssueEvent[];
  crossrefs: CrossRef[];
  prFiles: PrFileList[];
  repos: RepoMeta[];
  checkpoints: Checkpoint[];
}

function label(x: unknown): string {
  if (x && typeof x === 'object') {
    const o = x as Record<string, unknown>;
    if (typeof o.repo === 'string' && typeof o.number === 'number') return ` (${o.repo}#${o.number})`;
    if (typeof o.target_repo === 'string') return ` (${o.target_repo}#${String(o.target_number)})`;
    if (typeof o.repo === 'string') return ` (${o.repo})`;
  }
  return '';
}

function parseList<T>(
  name: string,
  schema: z.ZodType<T>,
  items: unknown[] | undefined,
  fast?: (x: unknown) => T | null,
): T[] {
  if (items === undefined) return [];
  if (!Array.isArray(items)) throw new InputError(`ingest: batch.${name} must be an array`);
  const out: T[] = new Array(items.length);
  for (let i = 0; i < items.length; i++) {
    const quick = fast?.(items[i]);
    if (quick) {
      out[i] = quick;
      continue;
    }
    const r = schema.safeParse(items[i]);
    if (!r.success) {
      const issue = r.error.issues[0];
      const field = issue?.path.length ? issue.path.join('.') : '(record)';
      throw new InputError(
        `ingest: batch.${name}[${i}]${label(items[i])} field "${field}": ${issue?.message ?? 'invalid'}`,
        { hint: 'nothing from this batch was written; fix the record and send the batch again' },
      );
    }
    out[i] = r.data;
  }
  return out;
}

/** Validates every record of a batch; throws InputError at the first bad one. */
export function validateBatch(b: CrawlBatch): ValidBatch {
  const cp = b.checkpoint === undefined ? [] : Array.isArray(b.checkpoint) ? b.checkpoint : [b.checkpoint];
  return {
    entries: parseList('entries', RawEntry, b.entries, fastEntry),
    comments: parseList('comments', Comment, b.comments),
    events: parseList('events', IssueEvent, b.events),
    crossrefs: parseList('crossrefs', CrossRef, b.crossrefs),
    prFiles: parseList('prFiles', PrFileList, b.prFiles),
    repos: parseList('repos', RepoMeta, b.repos),
    checkpoints: parseList('checkpoint', Checkpoint, cp),
  };
}
