/** One line of a curation funnel: what `faun curate` computes, stores and `faun stats` shows. */
import { z } from 'zod';

export const FunnelRow = z.object({
  /** Groups the lines of one run (empty or absent when the caller does not name runs). */
  run_id: z.string().optional(),
  repo: z.string(),
  step: z.string(),
  /** Position of the step (0-based), for stable ordering. */
  order: z.number().int(),
  /** What the step counts: issues before pairing, (issue, PR) pairs after. */
  unit: z.enum(['issue', 'pair']),
  input: z.number().int(),
  removed: z.number().int(),
  output: z.number().int(),
  /** The step could not run at all (e.g. no LLM, no file source) and removed nothing. */
  skipped: z.boolean(),
  /**
   * Items the step could not decide about and therefore kept, counted per reason (e.g.
   * `unsupported language (.rb)`, `file unreadable at the base commit`). Empty when it decided on all.
   */
  undecided: z.record(z.string(), z.number().int()),
});
export type FunnelRow = z.infer<typeof FunnelRow>;

/** The number of undecided items of a row. */
export const undecidedCount = (r: Pick<FunnelRow, 'undecided'>): number =>
  Object.values(r.undecided).reduce((a, b) => a + b, 0);
