/**
 * Hand-built data for the page tests: small QA / FL / CE datasets, predictions that carry usage, latency,
 * cost, cache hits and prompt hashes, and execution runs whose results carry every field the harness
 * records (stages with logs, the determinism contract with the image digest, flaky re-runs, tampering),
 * written straight into the server's results as a verification would.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ResultMessage } from '@faun/jobs';
import { buildPrompt, promptSha256 } from '@faun/models';
import type { ExecutionResult, FlItem, TaskItem } from '@faun/schema';
import { runs, submissions } from './db/schema.ts';
import type { TestServer } from './testkit.ts';

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const REPOS = ['acme/widgets', 'zeta/tools'];

export function flItems(n: number, name = 'fl'): FlItem[] {
  return Array.from({ length: n }, (_, i) => ({
    v: 1,
    id: `${REPOS[i % 2]}#${i + 1}`,
    repo: REPOS[i % 2]!,
    language: i % 2 ? 'go' : 'python',
    issue_number: i + 1,
    issue_title: `${name}: crash in module ${i} when the cache is cold`,
    issue_body: `Steps to reproduce ${i}: run the tool twice. `.repeat(3 + (i % 5) * 20),
    task: 'fl',
    base_commit: null,
    tree: [`src/module_${i}/handler_with_a_long_name_${i}.py`, 'src/util.py', 'README.md'],
    gold_path: `src/module_${i}/handler_with_a_long_name_${i}.py`,
  }));
}

export function ceItems(n: number): TaskItem[] {
  return Array.from({ length: n }, (_, i) => ({
    v: 1,
    id: `acme/widgets#${100 + i}`,
    repo: 'acme/widgets',
    language: 'python',
    issue_number: 100 + i,
    issue_title: `total() is off by one (${i})`,
    issue_body: 'The total counts one item too many.',
    task: 'ce',
    base_commit: null,
    pr_number: 200 + i,
    pr_title: 'Fix the total',
    pr_body: 'Drop the extra item.',
    path: `pkg/calc_${i}.py`,
    file_before: `def total(xs):\n    return sum(xs) + 1\n\n\ndef mean(xs):\n    return total(xs) / len(xs)\n`,
    file_after: `def total(xs):\n    return sum(xs)\n\n\ndef mean(xs):\n    return total(xs) / len(xs)\n`,
    gold_patch: `<<<<<<< SEARCH\n    return sum(xs) + 1\n=======\n    return sum(xs)\n>>>>>>> REPLACE\n`,
  }));
}

/** A prediction with everything a remote model call records (usage, cost, latency, cache, prompt hash). */
export function recorded(item: TaskItem, model: string, output: string, k: number) {
  const budget = 100_000;
  return {
    v: 1,
    id: item.id,
    task: item.task,
    model,
    output,
    prompt_version: null,
    input_tokens: 100 + k,
    usage: { prompt_tokens: 120 + k, completion_tokens: 30 + k, cached_tokens: 0 },
    cost_usd: 0.0001 * (k + 1),
    latency_ms: 800 + 10 * k,
    cache_hit: k % 2 === 1,
    prompt_sha256: promptSha256(buildPrompt(item, budget).messages),
    prompt_budget: budget,
  };
}

const MONTHS = [
  '2022-11-03T10:00:00Z',
  '2023-02-14T10:00:00Z',
  '2023-06-30T10:00:00Z',
  '2024-01-09T10:00:00Z',
];

export function execInstances(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    v: 1,
    instance_id: `${i % 2 ? 'zeta__tools' : 'acme__widgets'}-${i + 1}`,
    repo: REPOS[i % 2],
    language: i % 2 ? 'go' : 'python',
    base_commit: 'a'.repeat(40),
    patch: `diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n`,
    test_patch: 'diff --git a/t.py b/t.py\n',
    fail_to_pass: ['tests/test_calc.py::test_add'],
    pass_to_pass: ['tests/test_calc.py::test_neg'],
    problem_statement: `add() subtracts (${i})`,
    created_at: MONTHS[i % MONTHS.length],
  }));
}

const CONTRACT = {
  TZ: 'UTC',
  LANG: 'C.UTF-8',
  LC_ALL: 'C.UTF-8',
  PYTHONHASHSEED: '0',
  SOURCE_DATE_EPOCH: '1700000000',
  network: 'none',
  user: '1000:1000',
  cpus: 2,
  memory_mb: 4096,
  pids: 512,
  disk_mb: 10240,
  image: 'faun/inst-acme-widgets:0123abcd',
  image_digest: 'sha256:4f2c9d0e7a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1d',
};

const tests = (f2p: boolean, p2p: boolean) => ({
  FAIL_TO_PASS: f2p
    ? { success: ['tests/test_calc.py::test_add'], failure: [] }
    : { success: [], failure: ['tests/test_calc.py::test_add'] },
  PASS_TO_PASS: p2p
    ? { success: ['tests/test_calc.py::test_neg'], failure: [] }
    : { success: [], failure: ['tests/test_calc.py::test_neg'] },
  FAIL_TO_FAIL: { success: [], failure: [] },
  PASS_TO_FAIL: { success: [], failure: [] },
});

/** A result of each kind: resolved, apply failed, flaky (re-run), tampered; null fields for older ones. */
export function execResult(
  id: string,
  kind: 'resolved' | 'apply_failed' | 'flaky' | 'tampered' | 'old',
): ExecutionResult {
  const stage = (name: string, status: 'ok' | 'failed' | 'skipped', detail: string, log: string | null) => ({
    name,
    status,
    duration_s: 1.5,
    detail,
    log,
  });
  const ts = tests(kind === 'resolved' || kind === 'flaky', kind !== 'apply_failed');
  const base: ExecutionResult = {
    v: 1,
    instance_id: id,
    model: 'm',
    outcome: kind === 'old' ? 'unresolved' : kind,
    resolved_status: kind === 'resolved' ? 'RESOLVED_FULL' : 'RESOLVED_NO',
    applied_with: kind === 'apply_failed' ? null : 'git apply',
    patch_sha256: 'f'.repeat(64),
    image_id: 'inst-acme-widgets',
    spec_version: 'default:python@2',
    exit_code: kind === 'apply_failed' ? null : 0,
    tests_status: ts,
    duration_s: 4.2,
    error: null,
  };
  if (kind === 'old') return base;
  const stages =
    kind === 'apply_failed'
      ? [
          stage(
            'apply',
            'failed',
            'git apply, git apply --3way, patch --fuzz all failed',
            'apply_output.txt',
          ),
          stage('build', 'skipped', 'not reached', null),
          stage('tests', 'skipped', 'the patch did not apply', null),
        ]
      : [
          stage('apply', 'ok', 'git apply', 'apply_output.txt'),
          stage('build', 'ok', 'image built', 'build_output.txt'),
          stage('tests', kind === 'flaky' ? 'failed' : 'ok', 'exit 0', 'test_output.txt'),
          ...(kind === 'flaky'
            ? [stage('rerun-1', 'ok', 're-ran tests/test_calc.py::test_add', 'rerun_1_output.txt')]
            : []),
        ];
  return {
    ...base,
    contract: CONTRACT,
    stages,
    ...(kind === 'flaky'
      ? {
          test_runs: { 'tests/test_calc.py::test_add': { passes: 1, runs: 2 } },
          flaky_tests: ['tests/test_calc.py::test_add'],
        }
      : {}),
    ...(kind === 'tampered' ? { tampered: ['forged-marker', 'test-infrastructure:conftest.py'] } : {}),
  };
}

/** Writes the datasets of the page tests into `dir`. */
export function writeDatasets(dir: string): {
  fl: FlItem[];
  ce: TaskItem[];
  exec: ReturnType<typeof execInstances>;
} {
  mkdirSync(dir, { recursive: true });
  const fl = flItems(8);
  const ce = ceItems(3);
  const exec = execInstances(8);
  writeFileSync(join(dir, 'fl.jsonl'), jsonl(fl));
  writeFileSync(
    join(dir, 'fl-two.jsonl'),
    jsonl(flItems(2, 'two').map((it) => ({ ...it, id: `two/${it.id}` }))),
  );
  writeFileSync(join(dir, 'ce.jsonl'), jsonl(ce));
  writeFileSync(join(dir, 'exec.jsonl'), jsonl(exec));
  return { fl, ce, exec };
}

/** An execution run with hand-built results (as verification jobs would post them), finished. */
export async function execRun(
  s: TestServer,
  model: string,
  items: ReturnType<typeof execInstances>,
  kindOf: (i: number) => Parameters<typeof execResult>[1],
): Promise<string> {
  const id = `run-exec-${model}`;
  const db = s.services.db.db;
  await db.insert(runs).values({
    id,
    keyId: null,
    dataset: 'exec',
    task: 'exec',
    kind: 'exec',
    model,
    status: 'running',
    total: items.length,
  });
  const predictions = items.map((it) => ({
    instance_id: it.instance_id,
    model_patch: it.patch,
    model_name_or_path: model,
  }));
  await db.insert(submissions).values({ runId: id, sha256: 'x', bytes: 1, predictions });
  const results = items.map((it, i) => {
    const r = { ...execResult(it.instance_id, kindOf(i)), model };
    const logs: Record<string, string> =
      r.outcome === 'apply_failed'
        ? { 'apply_output.txt': 'error: patch failed: calc.py:1\nerror: calc.py: patch does not apply\n' }
        : {
            'apply_output.txt': 'Checking patch calc.py...\nApplied patch calc.py cleanly.\n',
            'build_output.txt': 'built\n',
          };
    return {
      runId: id,
      itemId: it.instance_id,
      outcome: r.outcome === 'resolved' ? 'pass' : 'fail',
      data: { execution: r, logs },
      log:
        r.outcome === 'apply_failed'
          ? null
          : '============================= test session starts ==\ntests/test_calc.py::test_add PASSED\n',
      durationMs: 4200,
    };
  });
  await s.services.runs.ingest(ResultMessage.parse({ runId: id, results }));
  return id;
}
