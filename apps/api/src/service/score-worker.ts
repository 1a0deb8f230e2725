/**
 * A scoring thread: runs `scoreTask` from @faun/metrics for the server's pool (score-pool.ts), so text
 * metrics and bootstrap resampling never hold the server's event loop.
 */
import { scoreTask } from '@faun/metrics';

declare const self: {
  onmessage: ((e: MessageEvent) => void) | null;
  postMessage(v: unknown): void;
};

interface Request {
  id: number;
  task: string;
  items: unknown[];
  predictions: unknown[];
  opts: Record<string, unknown>;
}

self.onmessage = async (e: MessageEvent) => {
  const r = e.data as Request;
  try {
    const result = await (scoreTask as (...a: unknown[]) => unknown)(r.task, r.items, r.predictions, r.opts);
    self.postMessage({ id: r.id, result });
  } catch (err) {
    const x = err as Error;
    self.postMessage({ id: r.id, error: { name: x?.name ?? 'Error', message: x?.message ?? String(err) } });
  }
};
