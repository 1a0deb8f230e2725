/**
 * The demo's verification stage: when a Docker engine is available (as root on Debian faun starts one),
 * generate a few small instances and verify their gold and empty patches in containers.
 */
import { join } from 'node:path';
import { faun, type StepEnv } from './steps.ts';

/** Returns the folder of ExecutionResult files, or null when the stage was skipped. */
export async function verifyStep(out: string, s: StepEnv): Promise<string | null> {
  const { ensureDocker } = await import('@faun/services');
  try {
    await ensureDocker((l) => s.log(`  ${l}`));
  } catch (e) {
    s.log(`no Docker engine is reachable (${(e as Error).message}); skipping container verification`);
    return null;
  }
  const harness = (await import('@faun/harness')) as Record<string, unknown>;
  const make = harness.writeDemoInstances as
    | ((dir: string) => Promise<{ instances: string; repoDirs: string[] }>)
    | undefined;
  if (!make) {
    s.log('this build has no demo instances for verification; skipping');
    return null;
  }
  const dir = join(out, 'execution');
  const { instances, repoDirs } = await make(join(out, 'instances'));
  const repoArgs = repoDirs.flatMap((r) => ['--repo-dir', r]);
  for (const pred of ['gold', 'empty'])
    await faun(
      [
        'verify',
        '--instances',
        instances,
        '--predictions',
        pred,
        '--run-id',
        `demo-${pred}`,
        ...repoArgs,
        '--results',
        join(dir, `${pred}.jsonl`),
      ],
      s,
    );
  return dir;
}
