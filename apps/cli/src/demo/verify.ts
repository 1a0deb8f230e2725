/**
 * The demo's verification stage: when a Docker engine is available (as root on Debian faun starts one),
 * generate small instances (a Python and a Go repository with failing tests and their fixes) and verify
 * their gold and empty patches in containers with `faun verify`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { faun, type StepEnv } from './steps.ts';

const LANGUAGES = ['python', 'go'] as const;

/** Returns the folder holding the verification runs, or null when the stage was skipped. */
export async function verifyStep(out: string, s: StepEnv): Promise<string | null> {
  const { ensureDocker } = await import('@faun/services');
  try {
    await ensureDocker((l) => s.log(`  ${l}`));
  } catch (e) {
    s.log(
      `no Docker engine is reachable (${(e as Error).message.split('\n')[0]}); skipping container verification`,
    );
    return null;
  }
  const { makeFixture } = await import('@faun/harness/testing');
  const root = join(out, 'instances');
  mkdirSync(root, { recursive: true });
  const fixtures = LANGUAGES.map((lang) => makeFixture(lang, join(root, 'repos')));
  // named for the dataset it becomes when `faun serve --import` loads the verification runs
  const instances = join(root, 'demo-exec.jsonl');
  writeFileSync(instances, fixtures.map((f) => `${JSON.stringify(f.instance)}\n`).join(''));
  s.log(`generated ${fixtures.length} instances (${LANGUAGES.join(', ')}) in ${instances}`);
  const runs = join(out, 'execution');
  const env = { ...s, env: { ...s.env, FAUN_LOG_DIR: runs } };
  const repoArgs = fixtures.flatMap((f) => ['--repo-dir', `${f.repo}=${f.dir}`]);
  for (const pred of ['gold', 'empty'])
    await faun(
      ['verify', '--instances', instances, '--predictions', pred, '--run-id', `demo-${pred}`, ...repoArgs],
      env,
    );
  return runs;
}
