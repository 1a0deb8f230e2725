/**
 * The determinism contract (pure): what every test run is held to, so the same instance and patch give the
 * same verdict from one run to the next. Each value removes a source of variation seen in real instances:
 *
 * - `TZ=UTC`: date tests (dayjs, moment, sympy's printing of dates) depend on the local zone;
 * - `LANG` / `LC_ALL=C.UTF-8`: sort order, number formats and the encoding of file names and output;
 * - `PYTHONHASHSEED=0` (unless the row says otherwise): set and dict-of-set order;
 * - `FAUN_TEST_SEED=0`: the seed of test runners that otherwise draw one per run, passed by the specs that
 *   use such a runner (sympy's `bin/test --seed`). sympy's runner reseeds `random` before every test, and
 *   sympy 1.1's assumption system shuffles the order in which it asks facts with it: under some orders
 *   `Mul._eval_is_prime` recurses without end (the sympy cache is off in tests), so `test_mod_inverse`,
 *   `test_issue_4956_5204` and others failed in some runs and passed in others, whatever the hash seed;
 * - `SOURCE_DATE_EPOCH=315532800` (1980-01-01, the earliest date zip archives hold): builds embed it instead
 *   of the clock;
 * - no network, the image by content digest, and the CPU, memory, process and disk limits — recorded with
 *   the result, so a verdict names everything it depended on.
 */
import type { DeterminismContract, ExecutionInstance } from '@faun/schema';
import { TEST_USER } from '../envs/sandbox-image.ts';
import { diskQuotaMb, type Limits, type SandboxNetwork } from './sandbox.ts';

export const SOURCE_DATE_EPOCH = '315532800';
/** The seed given to test runners that draw their own per run (`FAUN_TEST_SEED`). */
export const TEST_SEED = '0';

/** The environment variables of the contract for an instance. */
export function contractEnv(inst: Pick<ExecutionInstance, 'python_hash_seed'>): Record<string, string> {
  return {
    TZ: 'UTC',
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    PYTHONHASHSEED: inst.python_hash_seed ?? '0',
    SOURCE_DATE_EPOCH,
    FAUN_TEST_SEED: TEST_SEED,
  };
}

/** The contract a run was held to, as recorded in its result. */
export function determinismContract(opts: {
  inst: Pick<ExecutionInstance, 'python_hash_seed'>;
  network: SandboxNetwork;
  limits: Limits;
  image: string | null;
  imageDigest: string | null;
  /** The backend runs commands as the test user (false: local processes, no isolation). */
  isolated: boolean;
}): DeterminismContract {
  const env = contractEnv(opts.inst);
  return {
    TZ: env.TZ!,
    LANG: env.LANG!,
    LC_ALL: env.LC_ALL!,
    PYTHONHASHSEED: env.PYTHONHASHSEED!,
    SOURCE_DATE_EPOCH: env.SOURCE_DATE_EPOCH!,
    FAUN_TEST_SEED: env.FAUN_TEST_SEED!,
    network: opts.network,
    user: opts.isolated ? `${TEST_USER.name} (${TEST_USER.uid})` : 'host process (no isolation)',
    cpus: opts.limits.cpus,
    memory_mb: opts.limits.memoryMb,
    pids: opts.limits.pids,
    disk_mb: diskQuotaMb(opts.limits),
    image: opts.image,
    image_digest: opts.imageDigest,
  };
}
