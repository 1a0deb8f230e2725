/**
 * The run reports `faun verify --report-dir` writes, checked with the reference tools' own code (run
 * locally from extracted sources, never committed): SWE-bench's `make_run_report` recomputes the run
 * report from the per-instance files faun laid out and must give exactly faun's `<model>.<run_id>.json`;
 * Multi-SWE-bench's `FinalReport.from_dict` must load faun's `final_report.json`. Both must give the
 * counts `verify` printed. Uses the local backend (python3 + pytest on the host).
 *
 *   git --git-dir=<SWE-bench mirror> archive HEAD swebench | tar -x -C /tmp/swe
 *   git --git-dir=<Multi-SWE-bench mirror> archive HEAD multi_swe_bench | tar -x -C /tmp/msb
 *   bun run bench reports --swebench-src /tmp/swe --msb-src /tmp/msb
 * (Debian: python3-dataclasses-json python3-unidiff python3-docker python3-tqdm; /usr/bin/python3.)
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makeFixture, msbFixtureRow } from '@faun/harness/testing';

const MAIN = resolve(import.meta.dir, '../../../apps/cli/src/main.ts');
const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

function opt(args: string[], name: string): string {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? args[i + 1] : process.env[`FAUN_${name.toUpperCase().replaceAll('-', '_')}`];
  if (!v || !existsSync(v))
    throw new Error(
      `--${name} DIR is required (extracted sources of the reference; see bench/src/perf/reports.ts)`,
    );
  return resolve(v);
}

function verify(root: string, args: string[]): string {
  const p = Bun.spawnSync(
    ['bun', MAIN, 'verify', '--backend', 'local', '--log-dir', join(root, 'logs'), ...args],
    {
      env: { ...process.env, FAUN_STATE_DIR: join(root, 'state') },
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
  const out = `${p.stdout.toString()}\n${p.stderr.toString()}`;
  if (p.exitCode !== 0) throw new Error(`faun verify exited ${p.exitCode}:\n${out}`);
  return out;
}

/** `total 5, completed 3, …` from verify's output line for `format`. */
function printed(out: string, format: string): Record<string, number> {
  const line = out.split('\n').find((l) => l.includes(`${format} report: `));
  if (!line) throw new Error(`verify printed no ${format} report line:\n${out}`);
  const counts: Record<string, number> = {};
  for (const m of line.matchAll(/([a-z ]+?) (\d+)(?:,|;)/g))
    counts[m[1]!.trim().replaceAll(' ', '_')] = Number(m[2]);
  return counts;
}

function python(code: string, cwd: string): Record<string, unknown> {
  const p = Bun.spawnSync([PY, '-c', code], { cwd, stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`reference code failed:\n${p.stderr.toString()}`);
  const lines = p.stdout.toString().trim().split('\n');
  return JSON.parse(lines[lines.length - 1]!);
}

const SWE_CHECK = (src: string, runId: string, preds: string, dataset: string, faunFile: string) => `
import json, sys, types, tempfile, pathlib
for pkg in ("swebench", "swebench.harness", "swebench.image_builder"):
    m = types.ModuleType(pkg); m.__path__ = [str(pathlib.Path(${JSON.stringify(src)}, *pkg.split(".")))]; sys.modules[pkg] = m
sys.path.insert(0, ${JSON.stringify(src)})
from swebench.harness.reporting import make_run_report
preds = {p["instance_id"]: p for p in map(json.loads, open(${JSON.stringify(preds)}).read().splitlines())}
dataset = [json.loads(l) for l in open(${JSON.stringify(dataset)}).read().splitlines() if l.strip()]
out = tempfile.mkdtemp()
path = make_run_report(preds, dataset, ${JSON.stringify(runId)}, report_dir=out)
ref = json.load(open(path)); faun = json.load(open(${JSON.stringify(faunFile)}))
print(json.dumps({"equal": ref == faun, "name": pathlib.Path(path).name, "ref": ref}))
`;

const MSB_CHECK = (src: string, file: string) => `
import json, sys
sys.path.insert(0, ${JSON.stringify(src)})
from multi_swe_bench.harness.report import FinalReport
r = FinalReport.from_dict(json.load(open(${JSON.stringify(file)})))
print(json.dumps({k: getattr(r, k) for k in ("total_instances", "completed_instances", "resolved_instances", "unresolved_instances", "empty_patch_instances", "error_instances")}))
`;

const COUNT_KEYS = ['total', 'completed', 'resolved', 'unresolved', 'empty_patch', 'error'] as const;

/** Flags (reference sources; also FAUN_SWEBENCH_SRC / FAUN_MSB_SRC). */
export const FLAGS = { 'swebench-src': undefined, 'msb-src': undefined };

type Fixture = ReturnType<typeof makeFixture>;

/** faun verify of the fixture's rows with a report folder; its output. */
function verifyFixture(
  root: string,
  fx: Fixture,
  instances: string,
  preds: string,
  runId: string,
  dir: string,
) {
  const repoDir = `${fx.repo}=${fx.dir}`;
  return verify(root, [
    '--instances',
    instances,
    '--predictions',
    preds,
    '--run-id',
    runId,
    '--repo-dir',
    repoDir,
    '--report-dir',
    dir,
  ]);
}

/** SWE-bench rows (gold, half, empty, a malformed patch, one without a prediction) through SWE-bench's report code. */
function swebenchSide(root: string, fx: Fixture, sweSrc: string) {
  const ids = ['py-gold', 'py-half', 'py-empty', 'py-bad', 'py-none'];
  const rows = ids.map((id) => ({ ...fx.instance, instance_id: id }));
  writeFileSync(join(root, 'inst.jsonl'), `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const patches: Record<string, string> = {
    'py-gold': fx.patches.gold,
    'py-half': fx.patches.half,
    'py-empty': '',
    'py-bad': 'diff --git a/nope b/nope\n--- a/nope\n+++ b/nope\n@@ -1 +1 @@\n-x\n+y\n',
  };
  const preds = Object.entries(patches).map(([instance_id, model_patch]) =>
    JSON.stringify({ instance_id, model_name_or_path: 'org/model', model_patch }),
  );
  writeFileSync(join(root, 'preds.jsonl'), `${preds.join('\n')}\n`);
  const sweDir = join(root, 'swe-report');
  const sweOut = verifyFixture(root, fx, join(root, 'inst.jsonl'), join(root, 'preds.jsonl'), 'rep1', sweDir);
  const faunFile = join(sweDir, 'org__model.rep1.json');
  const swe = python(
    SWE_CHECK(sweSrc, 'rep1', join(root, 'preds.jsonl'), join(root, 'inst.jsonl'), faunFile),
    sweDir,
  );
  const ref = swe.ref as Record<string, number>;
  const swePrinted = printed(sweOut, 'SWE-bench');
  const sweCountsEqual = COUNT_KEYS.every((k) => ref[`${k}_instances`] === swePrinted[k]);
  console.log(`SWE-bench make_run_report on faun's layout equals faun's ${swe.name}: ${swe.equal}`);
  console.log(`  reference counts ${JSON.stringify(ref)}`.slice(0, 400));
  console.log(`  printed by verify ${JSON.stringify(swePrinted)}; equal: ${sweCountsEqual}`);
  return { swe, ref, swePrinted, sweCountsEqual, faunFile };
}

/** The same fixture as Multi-SWE-bench org/repo:pr-N rows with stored stages, loaded by its FinalReport. */
function msbSide(root: string, fx: Fixture, msbSrc: string) {
  const [org, name] = fx.repo.split('/') as [string, string];
  const msbRows = [1, 2, 3].map((n) => msbFixtureRow(fx, org, name, n, fx.instance.base_commit));
  writeFileSync(join(root, 'msb.jsonl'), `${msbRows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  const msbPreds = [
    { org, repo: name, number: 1, fix_patch: fx.patches.gold },
    { org, repo: name, number: 2, fix_patch: fx.patches.half },
    { org, repo: name, number: 3, fix_patch: '' },
  ];
  writeFileSync(join(root, 'msb-preds.jsonl'), `${msbPreds.map((p) => JSON.stringify(p)).join('\n')}\n`);
  const msbDir = join(root, 'msb-report');
  const msbOut = verifyFixture(
    root,
    fx,
    join(root, 'msb.jsonl'),
    join(root, 'msb-preds.jsonl'),
    'rep2',
    msbDir,
  );
  const msb = python(MSB_CHECK(msbSrc, join(msbDir, 'final_report.json')), msbDir) as Record<string, number>;
  const msbPrinted = printed(msbOut, 'Multi-SWE-bench');
  const msbCountsEqual = COUNT_KEYS.every((k) => msb[`${k}_instances`] === msbPrinted[k]);
  console.log(`Multi-SWE-bench FinalReport.from_dict loads faun's final_report.json: ${JSON.stringify(msb)}`);
  console.log(`  printed by verify ${JSON.stringify(msbPrinted)}; equal: ${msbCountsEqual}`);
  return { msb, msbPrinted, msbCountsEqual };
}

export default async function reports(args: string[]): Promise<Record<string, unknown>> {
  const root = mkdtempSync(join(tmpdir(), 'faun-bench-reports-'));
  try {
    const fx = makeFixture('python', root);
    const { swe, ref, swePrinted, sweCountsEqual, faunFile } = swebenchSide(
      root,
      fx,
      opt(args, 'swebench-src'),
    );
    const { msb, msbPrinted, msbCountsEqual } = msbSide(root, fx, opt(args, 'msb-src'));
    const ok = Boolean(swe.equal) && sweCountsEqual && msbCountsEqual;
    if (!ok) process.exitCode = 1;
    return {
      swebench_report_equal: swe.equal,
      swebench_counts: ref,
      swebench_printed: swePrinted,
      msb_counts: msb,
      msb_printed: msbPrinted,
      ok,
      report_example: JSON.parse(readFileSync(faunFile, 'utf8')),
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
