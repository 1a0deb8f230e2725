/**
 * Child process for the crash test: ingests synthetic pages into the store at argv[2] forever (one
 * batch per page, with its checkpoint), printing `page N` after each; the test SIGKILLs it mid-way.
 * argv[3] = maxBatches of the group commit.
 */
import { Store } from '../src/index.ts';
import { crawlPages } from './synthetic.ts';

const path = process.argv[2];
if (!path) throw new Error('usage: crash-child.ts <db> [maxBatches]');
const store = await Store.open(path, {
  commit: { maxBatches: Number(process.argv[3] ?? 1), maxDelayMs: 60_000 },
});
let n = 0;
for (const page of crawlPages({ seed: 7, total: 1_000_000, repos: 3, pageSize: 50 })) {
  await store.ingest(page);
  n++;
  if (n % 5 === 0) console.log(`page ${n}`);
}
