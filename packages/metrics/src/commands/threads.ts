/** The `--threads N` option of the scoring commands. */
import { type OptionSpec, UsageError } from '@faun/kit';
import { machineThreads } from '../pool/pool.ts';

export const THREADS_OPTION: OptionSpec = {
  name: 'threads',
  type: 'number',
  arg: 'N',
  description:
    "scoring threads (workers) for CodeBLEU and the other costly metrics; default: the machine's cores. " +
    'Results are byte-identical for any N',
};

/** The validated thread count (`undefined` → the machine's cores). */
export function threadsOption(v: unknown): number {
  if (v === undefined) return machineThreads();
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1 || n > 256)
    throw new UsageError(`--threads ${String(v)}: expected a whole number from 1 to 256`);
  return n;
}
