/**
 * A scoring worker: receives batches of jobs, runs them in order with {@link runJob} (grammars load on first
 * use and stay loaded; the CodeBLEU caches live as long as the worker) and posts one reply per batch.
 */
import { type JobBatch, type JobReply, runJob } from './jobs.ts';

declare const self: Worker;

// parsers load on first use (native where built, else WebAssembly)
self.onmessage = async (e: MessageEvent<JobBatch>) => {
  const replies: JobReply[] = [];
  for (const { id, job } of e.data.jobs) {
    try {
      replies.push({ id, ok: true, value: await runJob(job) });
    } catch (err) {
      replies.push({
        id,
        ok: false,
        error: (err as Error)?.message ?? String(err),
        name: (err as Error)?.name ?? 'Error',
      });
    }
  }
  self.postMessage(replies);
};
