/**
 * Shared field definitions. Every persisted record carries `v` (its schema version) so readers can
 * migrate or reject old files explicitly instead of guessing.
 */
import { z } from 'zod';

/** `owner/name`, as GitHub spells it. */
export const RepoName = z.string().regex(/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/, 'expected "owner/name"');
/** ISO-8601 timestamp string (GitHub's `2024-01-02T03:04:05Z` form). */
export const IsoTime = z.string().min(10);
export const Language = z.enum([
  'python',
  'java',
  'javascript',
  'typescript',
  'go',
  'rust',
  'c',
  'cpp',
  'other',
]);
export type Language = z.infer<typeof Language>;
export const TaskName = z.enum(['qa', 'fl', 'ce']);
export type TaskName = z.infer<typeof TaskName>;

/** A version field fixed to `n`, defaulting to it when absent (older writers). */
export const version = (n: number) => z.literal(n).default(n);
