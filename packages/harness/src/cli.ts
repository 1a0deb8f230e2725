/** `faun` subcommands owned by this package: verify, validate, report. */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type CommandContext,
  defineCommand,
  InputError,
  type OptionSpec,
  onInterrupt,
  optionKey,
  parseRepoDirs,
  repoDirOption,
  resumeCommand,
  sha256,
  sha256File,
  UsageError,
} from '@faun/kit';
import { stableStringify, writeFileAtomic } from '@faun/schema';
import { BUILD_NETWORKS, type BuildPolicy, buildPolicy, parseBuildNetwork } from '@faun/services';
import { MSB } from './benchmarks/msb.ts';
import { benchmarkOfRule, RULES } from './benchmarks/registry.ts';
import { IMAGE_TRUST_OPTIONS, imageTrustOf } from './envs/image-options.ts';
import { answers, registryUrl } from './envs/network.ts';
import { pruneCommand } from './envs/prune.ts';
import { DEFAULT_NAMESPACES } from './envs/published.ts';
import { specFor } from './envs/specs.ts';
import { DEFAULT_RERUNS, FLAKY_POLICIES, type FlakyPolicy } from './grading/flaky.ts';
import { regradeRun } from './regrade.ts';
import { HEALTH_FILE, healthLines, healthReport, readGoldRuns } from './report/health.ts';
import { errorDigest, summaryLine } from './report/summary.ts';
import { loadInstanceRows, loadInstances, loadPredictions } from './rows/instances.ts';
import { stageLogWriter } from './run/stage-logs.ts';
import { TEST_INFRA_MODES, type TestInfraMode } from './run/test-infra.ts';
import type { RunIdentity } from './run-identity.ts';
import { DEFAULT_OUTPUT_LIMITS } from './sandbox/capture.ts';
import { DockerBackend } from './sandbox/docker.ts';
import { LocalBackend } from './sandbox/local-backend.ts';
import { type Backend, DEFAULT_LIMITS, type Limits } from './sandbox/sandbox.ts';
import { keptInstances, validateInstances } from './validate/validate.ts';
import { openJournal } from './validate/validate-journal.ts';
import { msbDatasetRow, swebenchRow, validationFunnel } from './validate/validate-rows.ts';
import { DEFAULT_GOLD_CHECKS, DEFAULT_GOLD_PARALLEL } from './validate/validate-stability.ts';
import { verifyRun } from './verify.ts';

/** The gold health file under --log-dir (health.ts). */

const CACHE = process.env.FAUN_STATE_DIR ?? '/var/cache/faun';

const RUN_OPTIONS: OptionSpec[] = [
  {
    name: 'instances',
    type: 'string',
    arg: 'FILE',
    required: true,
    input: true,
    description: 'instances (SWE-bench / Multi-SWE-bench JSON or JSONL)',
  },
  { name: 'workers', type: 'number', arg: 'N', default: 1, description: 'instances run in parallel' },
  {
    name: 'timeout',
    type: 'number',
    arg: 'S',
    default: 1800,
    description: 'per-instance test timeout in seconds',
  },
  { name: 'instance-ids', type: 'list', arg: 'ID', repeatable: true, description: 'only these instance ids' },
  repoDirOption('local git directory of a repository (offline)'),
  {
    name: 'backend',
    type: 'string',
    choices: ['docker', 'local'],
    default: 'docker',
    description: 'docker containers, or local processes (no isolation; for tests)',
  },
  { name: 'cpus', type: 'number', default: DEFAULT_LIMITS.cpus, description: 'CPU limit per container' },
  {
    name: 'memory',
    type: 'number',
    arg: 'MB',
    default: DEFAULT_LIMITS.memoryMb,
    description: 'memory limit per container',
  },
  { name: 'pids', type: 'number', default: DEFAULT_LIMITS.pids, description: 'process limit per container' },
  {
    name: 'disk',
    type: 'number',
    arg: 'MB',
    default: DEFAULT_LIMITS.diskMb,
    description:
      'disk quota per sandbox: work tree and home (memory-backed, counts against --memory; /tmp and /var/tmp get a quarter each; the rest is read-only); default from FAUN_SANDBOX_DISK_MB, else 1024',
  },
  {
    name: 'build-network',
    type: 'string',
    choices: [...BUILD_NETWORKS],
    default: 'registries',
    description:
      "network of image builds: registries = only the package registries the host uses (its apt sources, its npm registry), through faun's egress proxy; none = no network; host = the host's network, loopback services included. Tests never have a network",
  },
  {
    name: 'build-registry',
    type: 'list',
    arg: 'URL',
    repeatable: true,
    description:
      'another package registry builds may reach with --build-network registries (host and port of the URL)',
  },
  {
    name: 'cache-level',
    type: 'string',
    choices: ['env', 'instance'],
    default: 'instance',
    description:
      'keep instance images for later runs (instance), or remove each after its run to save disk (env)',
  },
];

/** The build policy of `--build-network` / `--build-registry` (said once, with what it allows). */
function buildPolicyOf(ctx: CommandContext): BuildPolicy {
  const network = parseBuildNetwork(ctx.opts.buildNetwork);
  const extra = (ctx.opts.buildRegistry as string[] | undefined) ?? [];
  const policy = buildPolicy(network, { extraRegistries: extra });
  if (network === 'registries')
    ctx.log(`image builds: only ${policy.registries.join(' ')} (--build-network)`);
  else if (network === 'host')
    ctx.log('image builds: host network — build steps can reach the host and its loopback services');
  else ctx.log('image builds: no network');
  return policy;
}

/** --disk MB: a positive whole number of MB (every sandbox has a quota). */
function diskFlag(v: unknown): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 16)
    throw new UsageError(`--disk: expected a whole number of MB, at least 16, got '${String(v)}'`);
  return n;
}

async function common(ctx: CommandContext, runId: string) {
  const o = ctx.opts;
  const limits: Limits = {
    cpus: Number(o.cpus),
    memoryMb: Number(o.memory),
    pids: Number(o.pids),
    diskMb: diskFlag(o.disk),
  };
  const repoDirs = parseRepoDirs((o.repoDir as string[] | undefined) ?? []);
  const backend: Backend =
    o.backend === 'local'
      ? new LocalBackend(join(CACHE, 'local-envs'))
      : new DockerBackend(runId, { buildPolicy: buildPolicyOf(ctx), repoDirs });
  const workers = Number(o.workers ?? 1);
  if (!(workers >= 1)) throw new UsageError('--workers must be ≥ 1');
  const reruns = Number(o.reruns ?? DEFAULT_RERUNS);
  if (!Number.isInteger(reruns) || reruns < 0)
    throw new UsageError(`--reruns: expected a whole number ≥ 0, got '${String(o.reruns)}'`);
  const maxOutput = Number(o.maxOutput ?? 32);
  if (!(maxOutput >= 1)) throw new UsageError(`--max-output: expected MB ≥ 1, got '${String(o.maxOutput)}'`);
  const half = Math.floor((maxOutput * (1 << 20)) / 2);
  return {
    limits,
    backend,
    workers,
    reruns,
    flakyPolicy: (o.flakyPolicy === 'passed' ? 'passed' : 'failed') as FlakyPolicy,
    maxOutput: { headBytes: half, tailBytes: half },
    timeoutS: Number(o.timeout ?? 1800),
    repoDirs,
    instanceIds: (o.instanceIds as string[] | undefined) ?? [],
    cacheLevel: o.cacheLevel === 'env' ? ('env' as const) : ('instance' as const),
    cacheDir: join(CACHE, 'repos'),
  };
}

/** `--images`: pull or build; `auto` pulls when a registry of the namespaces answers. */
async function imagesMode(
  ctx: CommandContext,
  ns: { swebench: string; msb: string },
): Promise<'pull' | 'build'> {
  const o = String(ctx.opts.images ?? 'auto');
  const local = ctx.opts.backend === 'local';
  if (o === 'pull' && local)
    throw new UsageError('--images pull needs the docker backend', { hint: 'drop --backend local' });
  if (o === 'build' || local || ns.swebench === 'none') return 'build';
  if (o === 'pull') return 'pull';
  for (const url of new Set([registryUrl(ns.swebench), registryUrl(ns.msb)]))
    if (await answers(url)) {
      ctx.log(`images: pulling published images (${url} answers)`);
      return 'pull';
    }
  ctx.log('images: building environments (no image registry answers)');
  return 'build';
}

export const commands = [
  defineCommand({
    name: 'verify',
    summary: 'run predictions against instances in containers and grade them',
    description:
      'Each instance runs in its own sandbox (an unprivileged user, no capabilities, read-only root, size-limited ' +
      'writable places, CPU/memory/pids limits, no network): the model patch is applied (git apply → --3way → ' +
      'patch --fuzz), the test patch applied, the tests run as their own process and graded (FAIL_TO_PASS / ' +
      'PASS_TO_PASS) from their own output and exit status; a run that forges a marker is tampered, a failing ' +
      'test is re-run (--reruns) to tell flaky from failing. Results are stored per instance under <log-dir>/<run-id>; rerunning ' +
      'with the same run id resumes (an instance is skipped only when patch, environment and spec are unchanged).',
    examples: [
      'faun verify --instances lite.jsonl --predictions gold --run-id gold-1 --workers 2',
      'faun verify --instances fx.jsonl --predictions preds.jsonl --run-id m1 --repo-dir org/repo=../repo',
      'faun verify --prune-images',
    ],
    options: [
      // --instances, --predictions and --run-id are required unless --prune-images (checked in run).
      ...RUN_OPTIONS.map((o) => (o.name === 'instances' ? { ...o, required: false } : o)),
      {
        name: 'predictions',
        type: 'string',
        arg: 'FILE|gold|empty',
        description: 'predictions (SWE-bench JSONL or Multi-SWE-bench), or gold / empty',
      },
      {
        name: 'run-id',
        type: 'string',
        arg: 'ID',
        description: 'run id (a directory under --log-dir); one run id = one (instances, predictions) pair',
      },
      {
        name: 'images',
        type: 'string',
        choices: ['auto', 'pull', 'build'],
        default: 'auto',
        description:
          "published per-instance images: pull (SWE-bench rows with eval_script, Multi-SWE-bench rows), build (faun's own), auto = pull when the registry answers",
      },
      {
        name: 'namespace',
        type: 'string',
        arg: 'NS',
        default: DEFAULT_NAMESPACES.swebench,
        description: 'SWE-bench image namespace: <NS>/sweb.eval.x86_64.<id> (none = build)',
      },
      {
        name: 'msb-namespace',
        type: 'string',
        arg: 'NS',
        default: DEFAULT_NAMESPACES.msb,
        description: 'Multi-SWE-bench image namespace: <NS>/<org>_m_<repo>:pr-<N>',
      },
      {
        name: 'reruns',
        type: 'number',
        arg: 'N',
        default: DEFAULT_RERUNS,
        description:
          'when a FAIL_TO_PASS / PASS_TO_PASS test fails, run the instance again in a fresh sandbox up to N times (0 = never): a test that failed and then passed is flaky',
      },
      {
        name: 'flaky-policy',
        type: 'string',
        choices: [...FLAKY_POLICIES],
        default: 'failed',
        description:
          'a flaky test counts as failed (the reference rule: the instance is reported flaky, not resolved) or passed',
      },
      {
        name: 'max-output',
        type: 'number',
        arg: 'MB',
        default: DEFAULT_OUTPUT_LIMITS.headBytes >> 19,
        description:
          'test output kept per run: the first and last MB/2 each; the rest is counted and dropped',
      },
      {
        name: 'report-dir',
        type: 'string',
        arg: 'DIR',
        description:
          "also write SWE-bench's <model>.<run_id>.json (+ logs/run_evaluation/…) and, for Multi-SWE-bench rows, its final_report.json here",
      },
      {
        name: 'overwrite',
        type: 'boolean',
        default: false,
        description: 'replace a stored run of this id made from other instances or predictions',
      },
      {
        name: 'prune-images',
        type: 'boolean',
        default: false,
        description:
          'instead of running: remove faun/inst-* images no run under --log-dir refers to, and superseded faun/env-* images',
      },
      { name: 'dry-run', type: 'boolean', default: false, description: 'with --prune-images: only list' },
      {
        name: 'test-infra',
        type: 'string',
        choices: [...TEST_INFRA_MODES],
        default: 'drop',
        description:
          "files of a prediction that are the benchmark's test infrastructure (conftest.py, runner configuration, package.json, pom.xml, Cargo.toml, CMakeLists.txt, _test.go, files the test patch touches…): drop them before the run and record them (default), or keep them (research on agents that write tests)",
      },
      {
        name: 'run-empty',
        type: 'boolean',
        default: false,
        description:
          'run an empty prediction (or one whose every file is test infrastructure) like any other, on the base with the test patch, so an empty-patch control can fail (default: graded empty_patch without a run, as SWE-bench does)',
      },
      {
        name: 'allow-empty',
        type: 'boolean',
        default: false,
        description: 'accept an empty instances or predictions file (otherwise an error)',
      },
      ...IMAGE_TRUST_OPTIONS,
    ],
    async run(ctx) {
      if (ctx.opts.pruneImages) return pruneCommand(ctx);
      for (const name of ['instances', 'predictions', 'run-id'])
        if (!ctx.opts[optionKey(name)])
          throw new UsageError(`missing required option --${name}`, {
            hint: 'faun verify --instances FILE --predictions FILE|gold|empty --run-id ID (or --prune-images)',
          });
      const runId = String(ctx.opts.runId);
      const trust = imageTrustOf(ctx);
      const c = await common(ctx, runId);
      const instancesFile = String(ctx.opts.instances);
      const instances = await loadInstances(instancesFile);
      if (instances.length === 0 && !ctx.opts.allowEmpty)
        throw new InputError(`--instances ${instancesFile}: no instances (the file has no records)`, {
          hint: 'pass an instances file (faun build --from-swebench, faun validate), or --allow-empty',
        });
      const limit = ctx.opts.limit as number | undefined;
      const scoped = limit ? instances.slice(0, limit) : instances;
      const predSpec = String(ctx.opts.predictions);
      const predictions = await loadPredictions(predSpec, scoped, {
        ids: new Set(instances.map((i) => i.instance_id)),
        file: instancesFile,
      });
      if (predictions.length === 0 && !ctx.opts.allowEmpty)
        throw new InputError(`--predictions ${predSpec}: no predictions (the file has no records)`, {
          hint: 'pass a predictions file with one {instance_id, model_patch} line per instance, or --allow-empty',
        });
      const builtin = predSpec === 'gold' || predSpec === 'empty';
      const identity: RunIdentity = {
        model: predictions[0]?.model ?? (builtin ? predSpec : 'none'),
        predictions: predSpec,
        predictions_sha256: builtin ? sha256(predSpec) : await sha256File(predSpec),
        instances: String(ctx.opts.instances),
        instances_sha256: await sha256File(String(ctx.opts.instances)),
      };
      const dir = join(ctx.logDir, runId);
      const namespaces = {
        swebench: String(ctx.opts.namespace ?? DEFAULT_NAMESPACES.swebench),
        msb: String(ctx.opts.msbNamespace ?? DEFAULT_NAMESPACES.msb),
      };
      const images = await imagesMode(ctx, namespaces);
      // `faun …`, `bun run faun …` or `bun <path> …`: whatever re-runs this CLI from here.
      const resume = resumeCommand(ctx.argv);
      const interrupt = onInterrupt(() => resume);
      const total = c.instanceIds.length ? c.instanceIds.length : scoped.length;
      const progress = ctx.progress({ label: 'verify', total });
      let resolved = 0;
      try {
        const out = await verifyRun({
          ...c,
          instances: scoped,
          predictions,
          runId,
          dir,
          signal: interrupt.signal,
          log: (l) => ctx.log(l),
          argv: ctx.argv,
          resumeCommand: resume,
          identity,
          overwrite: Boolean(ctx.opts.overwrite),
          reportDir: ctx.opts.reportDir ? String(ctx.opts.reportDir) : undefined,
          images,
          namespaces,
          ...trust,
          healthFile: join(ctx.logDir, HEALTH_FILE),
          testInfra: (ctx.opts.testInfra === 'keep' ? 'keep' : 'drop') as TestInfraMode,
          runEmpty: Boolean(ctx.opts.runEmpty),
          onResult: (r, reused) => {
            if (r.outcome === 'resolved') resolved++;
            progress.tick(
              1,
              `${resolved} resolved | ${r.instance_id}: ${r.outcome}${reused ? ' (stored)' : ''}`,
            );
          },
        });
        progress.done();
        const r = out.report;
        const digest = errorDigest(out.results);
        for (const line of digest.lines) ctx.result(line);
        ctx.result(summaryLine(r, { reused: out.reused, reportPath: join(dir, 'report.json') }));
        for (const w of out.formatReports) ctx.result(`${w.label} report: ${w.counts}; ${w.path}`);
        ctx.emitJson(r);
        if (out.cancelled) {
          ctx.log(`interrupted; resume with: ${resume}`);
          return 130;
        }
        // Nothing was evaluated: every instance ended in an infrastructure error.
        if (digest.nothingEvaluated) return 1;
        return 0;
      } finally {
        interrupt.dispose();
      }
    },
  }),
  defineCommand({
    name: 'validate',
    summary:
      'derive FAIL_TO_PASS / PASS_TO_PASS of new instances by running their tests without and with the gold patch',
    examples: [
      'faun validate --instances new.jsonl --out valid.jsonl --repeats 3 --repo-dir org/repo=../repo',
      'faun validate --instances out/exec.msb.jsonl --rule multi-swe-bench --repeats 3 --out valid.jsonl --msb-out valid.msb.jsonl --swebench-out valid.swebench.jsonl --repo-dir org/repo=../repo',
    ],
    options: [
      {
        name: 'gold-checks',
        type: 'number',
        arg: 'K',
        default: DEFAULT_GOLD_CHECKS,
        description:
          'a valid instance is kept only if its gold patch resolves K rounds in a row (0 = no check); otherwise it is unstable',
      },
      {
        name: 'gold-parallel',
        type: 'number',
        arg: 'N',
        default: DEFAULT_GOLD_PARALLEL,
        description: 'gold runs side by side in each round of the stability check (load)',
      },
      ...RUN_OPTIONS.filter((o) => o.name !== 'instance-ids'),
      {
        name: 'out',
        type: 'string',
        arg: 'FILE',
        required: true,
        description: 'validated instances (JSONL)',
      },
      {
        name: 'repeats',
        type: 'number',
        arg: 'N',
        default: 1,
        description: 'runs per side; tests that flip are dropped as flaky',
      },
      {
        name: 'rule',
        type: 'string',
        choices: [...RULES],
        default: 'swebench',
        description:
          "swebench: test patch without / with the fix, valid with ≥ 1 FAIL_TO_PASS; multi-swe-bench: its three stages (run, test, fix) and its report's validity check (n2p / s2p count)",
      },
      {
        name: 'swebench-out',
        type: 'string',
        arg: 'FILE',
        description: 'also write the valid instances as SWE-bench rows (FAIL_TO_PASS / PASS_TO_PASS …)',
      },
      {
        name: 'msb-out',
        type: 'string',
        arg: 'FILE',
        description: 'with --rule multi-swe-bench: also write them as Multi-SWE-bench dataset rows',
      },
      {
        name: 'stage-logs',
        type: 'string',
        arg: 'DIR',
        description:
          "keep every stage run's test output: DIR/<instance_id>/run.log, test-patch-run.log, fix-patch-run.log (Multi-SWE-bench's names; before.log / after.log with the swebench rule; repeats ≥ 2 as run.2.log …) and instance.json",
      },
      {
        name: 'fresh',
        type: 'boolean',
        description:
          'validate every instance again, ignoring <out>.journal.jsonl (by default the instances validated there with the same row, spec, rule and repeats are reused: an interrupted run continues)',
      },
      ...IMAGE_TRUST_OPTIONS.filter((o) => o.name === 'trust-rows' || o.name === 'image-allow'),
    ],
    async run(ctx) {
      const rule = benchmarkOfRule(RULES.find((r) => r === ctx.opts.rule) ?? 'swebench').rule;
      if (ctx.opts.msbOut && rule !== MSB.rule)
        throw new UsageError(
          '--msb-out needs --rule multi-swe-bench (its rows carry the three stage results)',
        );
      const c = await common(ctx, `validate-${process.pid}`);
      const loaded = await loadInstanceRows(String(ctx.opts.instances));
      const instances = loaded.map((l) => l.instance);
      const out = String(ctx.opts.out);
      const journalPath = `${out}.journal.jsonl`;
      if (ctx.opts.fresh) await rm(journalPath, { force: true });
      const journal = openJournal(journalPath);
      if (journal.size) ctx.log(`resuming: ${journal.size} validation(s) in ${journalPath}`);
      const progress = ctx.progress({ label: 'validate', total: instances.length });
      const interrupt = onInterrupt(() => 'the same command (finished instances are kept in the journal)');
      try {
        const { trustRows, imageAllow } = imageTrustOf(ctx);
        const results = await validateInstances(instances, {
          ...c,
          trustRows,
          imageAllow,
          goldChecks: Number(ctx.opts.goldChecks ?? DEFAULT_GOLD_CHECKS),
          goldParallel: Number(ctx.opts.goldParallel ?? DEFAULT_GOLD_PARALLEL),
          healthFile: join(ctx.logDir, HEALTH_FILE),
          repeats: Number(ctx.opts.repeats ?? 1),
          rule,
          signal: interrupt.signal,
          journal,
          onDone: (id, ok, reused) =>
            progress.tick(1, `${id}: ${ok ? 'valid' : 'rejected'}${reused ? ' (journal)' : ''}`),
          onStageLog: ctx.opts.stageLogs ? stageLogWriter(String(ctx.opts.stageLogs)) : undefined,
        });
        progress.done();
        if (results.length < instances.length) {
          ctx.log(
            `interrupted: ${results.length}/${instances.length} instances validated, kept in ${journalPath}; ${out} not written — run the same command again to continue`,
          );
          return 130;
        }
        await journal.compact();
        const valid = keptInstances(results).flatMap((r) => (r.instance ? [r.instance] : []));
        await writeFileAtomic(
          out,
          valid.map((i) => stableStringify(i)).join('\n') + (valid.length ? '\n' : ''),
        );
        const summary = results.map((r) => ({
          instance_id: r.instance_id,
          valid: r.valid,
          reason: r.reason,
          fail_to_pass: r.derived?.fail_to_pass.length ?? 0,
          pass_to_pass: r.derived?.pass_to_pass.length ?? 0,
          flaky: r.derived?.flaky ?? [],
          ...(r.msb ? { n2p: r.msb.n2p.length, s2p: r.msb.s2p.length, f2p: r.msb.f2p.length } : {}),
          ...(r.stability
            ? {
                gold_checks: {
                  rounds: r.stability.checks,
                  parallel: r.stability.parallel,
                  resolved: r.stability.runs.filter((x) => x.outcome === 'resolved').length,
                  runs: r.stability.runs.length,
                },
              }
            : {}),
        }));
        await writeFileAtomic(`${out}.report.json`, `${stableStringify(summary, 2)}\n`);
        await writeFileAtomic(`${out}.funnel.json`, `${stableStringify(validationFunnel(results), 2)}\n`);
        const rows = new Map(loaded.map((l) => [l.instance.instance_id, l.row]));
        const shaped = (f: typeof msbDatasetRow | typeof swebenchRow) =>
          keptInstances(results).flatMap((r) =>
            r.instance ? [f(r.instance, rows.get(r.instance_id) ?? {}, r, specFor(r.instance))] : [],
          );
        const lines = (xs: Array<Record<string, unknown> | null>) =>
          xs.flatMap((x) => (x ? [`${stableStringify(x)}\n`] : [])).join('');
        if (ctx.opts.swebenchOut)
          await writeFileAtomic(String(ctx.opts.swebenchOut), lines(shaped(swebenchRow)));
        if (ctx.opts.msbOut) await writeFileAtomic(String(ctx.opts.msbOut), lines(shaped(msbDatasetRow)));
        for (const s of summary)
          ctx.log(
            `${s.instance_id}: ${s.valid ? 'valid' : `rejected (${s.reason})`} F2P ${s.fail_to_pass} P2P ${s.pass_to_pass}` +
              (s.flaky.length ? ` flaky dropped: ${s.flaky.join(', ')}` : ''),
          );
        ctx.log(`${valid.length}/${results.length} valid → ${out}`);
        ctx.emitJson(summary);
        return 0;
      } finally {
        interrupt.dispose();
      }
    },
  }),
  defineCommand({
    name: 'report',
    summary: 're-grade a verify run from its stored logs (no containers) and print its report',
    options: [
      { name: 'run-id', type: 'string', arg: 'ID', required: true, description: 'the run to re-grade' },
    ],
    async run(ctx) {
      const runId = String(ctx.opts.runId);
      const dir = join(ctx.logDir, runId);
      if (!existsSync(join(dir, 'instances')))
        throw new InputError(`no verify run at ${dir}`, {
          hint: 'pass the same --log-dir and --run-id as the verify run',
        });
      const { report, changed } = await regradeRun(dir, runId);
      ctx.result(
        `${summaryLine(report)}; ${changed.length} result(s) changed by re-grading` +
          (changed.length ? `: ${changed.join(', ')}` : ''),
      );
      ctx.emitJson(report);
      return 0;
    },
  }),
  defineCommand({
    name: 'instances',
    summary: 'questions about instances: health (gold runs that failed)',
    run() {
      throw new UsageError('faun instances: name a subcommand: health');
    },
    subcommands: [
      defineCommand({
        name: 'health',
        summary: 'instances whose gold patch ever failed, with per-test failure rates',
        description:
          'Reads the gold health file (every gold run of faun verify --predictions gold and of the stability check of ' +
          'faun validate, under --log-dir) and lists, per instance whose gold ever failed: its gold runs, how many failed ' +
          'and how, when last, and each test that failed with its failure rate.',
        examples: [
          'faun instances health',
          'faun instances health --all --json',
          'faun instances health --health runs/gold-health.jsonl',
        ],
        options: [
          {
            name: 'health',
            type: 'string',
            arg: 'FILE',
            description: `the health file (default <log-dir>/${HEALTH_FILE})`,
          },
          {
            name: 'all',
            type: 'boolean',
            default: false,
            description: 'list every instance with gold runs, failing or not',
          },
        ],
        async run(ctx) {
          const file = ctx.opts.health ? String(ctx.opts.health) : join(ctx.logDir, HEALTH_FILE);
          const runs = await readGoldRuns(file);
          const report = healthReport(runs, Boolean(ctx.opts.all));
          const total = new Set(runs.map((r) => r.instance_id)).size;
          for (const line of healthLines(healthReport(runs), total)) ctx.result(line);
          ctx.emitJson(report);
          return 0;
        },
      }),
    ],
  }),
];
