/**
 * The forgery suite of one fixture language (run/forgery-*.int.test.ts): a patch leaves the bug in place and,
 * when its code is loaded, prints passing results in every runner's format with faun's and SWE-bench's markers
 * and a zero exit code, reads the evaluation script for a nonce, kills every process after forging, or
 * overwrites the files the grader used to read. The gold patch of the same run still resolves (the control);
 * no forgery is resolved, every one that printed a marker is `tampered`, and changed test infrastructure is
 * dropped. The languages are shared out over a few files so that they run in parallel.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureDocker } from '@faun/services';
import { DockerBackend } from '../src/sandbox/docker.ts';
import { verifyRun } from '../src/verify.ts';
import { type FixtureLanguage, forgeryPatches, infraPatch, makeFixture } from './fixtures.ts';

/**
 * The languages of each forgery file (`run/forgery-<name>.int.test.ts`), every fixture language in exactly one;
 * shares of about equal time (alone, quiet: java 52 s, go 22, rust 22, cpp 24, ts 19, c 17, js 14, python 13).
 */
export const FORGERY_SHARES: Record<string, FixtureLanguage[]> = {
  'java-python': ['java', 'python'],
  'go-rust-ts': ['go', 'rust', 'typescript'],
  'c-cpp-js': ['cpp', 'c', 'javascript'],
};

export const forgeryTitle = (lang: FixtureLanguage) =>
  `${lang}: forged results, a read nonce, a killed parent, rewritten grader files and edited runner configuration are never resolved`;

/** Runs the gold patch and every forgery of `lang`'s fixture in one verification run under `root`; checks outcomes. */
export async function forgeryCase(lang: FixtureLanguage, root: string): Promise<void> {
  const fx = makeFixture(lang, root);
  const infra = infraPatch(fx);
  const cases: Record<string, string> = {
    gold: fx.patches.gold,
    ...forgeryPatches(fx),
    test_infra: infra.patch,
  };
  const out = await verifyRun({
    instances: Object.keys(cases).map((k) => ({ ...fx.instance, instance_id: `${lang}-${k}` })),
    predictions: Object.entries(cases).map(([k, patch]) => ({
      instance_id: `${lang}-${k}`,
      model: 'm',
      patch,
    })),
    runId: `forgery-${lang}`,
    dir: join(root, `run-${lang}`),
    backend: new DockerBackend(`forgery-${lang}`),
    workers: 2,
    timeoutS: 300,
    reruns: 0,
    repoDirs: { [fx.repo]: fx.dir },
  });
  const by = Object.fromEntries(out.results.map((r) => [r.instance_id.slice(lang.length + 1), r]));
  expect(by.gold?.outcome).toBe('resolved');
  for (const k of ['forged_markers', 'read_eval_script', 'kill_after_forging']) {
    expect({ k, outcome: by[k]?.outcome }).toEqual({ k, outcome: 'tampered' });
    expect(by[k]?.tampered?.length).toBeGreaterThan(0);
  }
  expect(by.write_grader_files?.outcome).toBe('unresolved');
  // the runner's configuration and test files the patch changed are dropped before the run: never resolved
  expect(by.test_infra?.outcome).toBe('unresolved');
  expect(by.test_infra?.dropped_files?.map((d) => d.path).sort()).toEqual(infra.infra);
  expect(out.report.resolved_ids).toEqual([`${lang}-gold`]);
}

/** The tests of one forgery file: one per language of `share`, in a scratch folder. */
export function forgerySuite(share: string): void {
  const langs = FORGERY_SHARES[share];
  if (!langs)
    throw new Error(`no forgery share '${share}' (FORGERY_SHARES has ${Object.keys(FORGERY_SHARES)})`);
  let root = '';
  beforeAll(async () => {
    await ensureDocker();
    root = mkdtempSync(join(tmpdir(), 'faun-forgery-'));
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  for (const lang of langs) test(forgeryTitle(lang), () => forgeryCase(lang, root), 900_000);
}
