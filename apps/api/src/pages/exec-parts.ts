/**
 * The execution part of the sample viewer: the run stage by stage (patch apply with its log, build,
 * tests, flaky re-runs), each graded test's status (and passes/runs when re-run), what a tampered run
 * did, the determinism contract and the image digest, the test log and the test patch. Results written
 * before stages were recorded get an apply stage derived from `applied_with`; tests that never ran
 * (the patch did not apply, or was empty) show as "not run", never as failed.
 */
import type { DeterminismContract, ExecutionInstance, ExecutionResult, ExecutionStage } from '@faun/schema';
import type { ResultRow } from './data.ts';
import { fmt, h, type Safe } from './h.ts';
import { diffBlock } from './item-parts.ts';
import { scrollTable } from './layout.ts';

type TestSet = { success: string[]; failure: string[] };

/** Tests did not run: the patch was empty or did not apply (or the run stopped before them). */
export function testsNotRun(ex: ExecutionResult | undefined): string | null {
  if (!ex) return 'not verified';
  if (ex.outcome === 'apply_failed') return 'the patch did not apply';
  if (ex.outcome === 'empty_patch') return 'the patch is empty';
  const tests = ex.stages?.find((st) => st.name === 'tests');
  if (tests?.status === 'skipped') return tests.detail ?? 'the tests were skipped';
  return null;
}

/** The stages as recorded, or for older results the apply stage derived from the result. */
export function stagesOf(ex: ExecutionResult): ExecutionStage[] {
  if (ex.stages?.length) return ex.stages;
  const applied = ex.applied_with !== null;
  const apply: ExecutionStage = {
    name: 'apply',
    status: applied ? 'ok' : ex.outcome === 'empty_patch' ? 'skipped' : 'failed',
    duration_s: 0,
    detail: applied
      ? `applied with ${ex.applied_with}`
      : ex.outcome === 'empty_patch'
        ? 'empty patch'
        : 'did not apply',
    log: 'apply_output.txt',
  };
  const ran = testsNotRun(ex) === null;
  return [
    apply,
    {
      name: 'tests',
      status: ran ? (ex.exit_code === 0 ? 'ok' : 'failed') : 'skipped',
      duration_s: ex.duration_s,
      detail: ran ? `exit code ${ex.exit_code ?? '—'}` : testsNotRun(ex),
      log: 'test_output.txt',
    },
  ];
}

const logId = (name: string) => `log-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

function stageTable(stages: ExecutionStage[], logs: Record<string, string>): Safe {
  return scrollTable(
    'stages',
    h`<table id="stages"><thead><tr><th scope="col">Stage</th><th scope="col">Status</th><th scope="col" class="num">Seconds</th><th scope="col">Detail</th><th scope="col">Log</th></tr></thead><tbody>${stages.map(
      (st) =>
        h`<tr><td><b>${st.name}</b></td><td><span class="badge b-${st.status === 'ok' ? 'ok' : st.status === 'failed' ? 'failed' : 'notrun'}">${st.status}</span></td><td class="num">${fmt(st.duration_s, 1)}</td><td>${st.detail ?? ''}</td><td>${st.log ? (logs[st.log] !== undefined ? h`<a href="#${logId(st.log)}">${st.log}</a>` : h`<code class="muted">${st.log}</code>`) : ''}</td></tr>`,
    )}</tbody></table>`,
  );
}

function testList(
  kind: string,
  expected: string[],
  got: TestSet | undefined,
  ex: ExecutionResult | undefined,
): Safe {
  const pass = new Set(got?.success ?? []);
  const fail = new Set(got?.failure ?? []);
  const names = [...new Set([...expected, ...pass, ...fail])];
  if (names.length === 0) return h`<p class="muted">${kind}: none</p>`;
  const notRun = testsNotRun(ex);
  const flaky = new Set(ex?.flaky_tests ?? []);
  const runs = ex?.test_runs ?? {};
  const status = (t: string): [string, string] =>
    notRun !== null
      ? ['notrun', 'not run']
      : pass.has(t)
        ? ['pass', 'passed']
        : fail.has(t)
          ? ['fail', 'failed']
          : ['notrun', 'not run'];
  const head =
    notRun === null ? `${kind} (${pass.size}/${names.length} pass)` : `${kind} (not run: ${notRun})`;
  return scrollTable(
    kind,
    h`<table class="tests" id="${kind}"><thead><tr><th scope="col">${head}</th><th scope="col">Status</th><th scope="col" class="num">Passes / runs</th></tr></thead><tbody>${names.map(
      (t) => {
        const [cls, label] = status(t);
        const r = runs[t];
        return h`<tr><td><code>${t}</code>${flaky.has(t) ? h` <span class="badge b-timeout">flaky</span>` : ''}</td><td><span class="badge b-${cls}">${label}</span></td><td class="num">${r ? `${r.passes}/${r.runs}` : '—'}</td></tr>`;
      },
    )}</tbody></table>`,
  );
}

function contractList(c: DeterminismContract | undefined, ex: ExecutionResult): Safe {
  if (!c)
    return h`<p class="muted" id="contract">No determinism contract recorded (a result from before contracts were written). Image: <code>${ex.image_id ?? '—'}</code>.</p>`;
  const rows: [string, string][] = [
    ['image', c.image ?? '—'],
    ['image digest', c.image_digest ?? '— (local backend)'],
    ['TZ / LANG / LC_ALL', `${c.TZ} / ${c.LANG} / ${c.LC_ALL}`],
    ['PYTHONHASHSEED', c.PYTHONHASHSEED],
    ['SOURCE_DATE_EPOCH', c.SOURCE_DATE_EPOCH],
    ['network', c.network],
    ['user', c.user],
    ['limits', `${c.cpus} CPUs · ${c.memory_mb} MB memory · ${c.pids} processes · ${c.disk_mb} MB disk`],
  ];
  return h`<dl class="kv" id="contract">${rows.map(([k, v]) => h`<dt>${k}</dt><dd><code>${v}</code></dd>`)}</dl>`;
}

function logBlocks(logs: Record<string, string>, testLog: string | null, applyFailed: boolean): Safe {
  const entries = Object.entries(logs);
  return h`${entries.map(
    ([name, text]) =>
      h`<details id="${logId(name)}"${applyFailed && name === 'apply_output.txt' ? h` open` : ''}><summary>${name} (${text.split('\n').length} lines)</summary><pre class="log" tabindex="0">${text}</pre></details>`,
  )}${
    testLog
      ? h`<details open id="${logId('test_output.txt')}"><summary>Test log (${testLog.split('\n').length} lines; search it with the browser's find)</summary><pre class="log" tabindex="0">${testLog}</pre></details>`
      : h`<p class="muted">No test log.</p>`
  }${entries.length === 0 && applyFailed ? h`<p class="muted">No apply log was kept with this result.</p>` : ''}`;
}

/** Execution: the patch, the stages, each graded test's status, the contract and the logs. */
export function execSection(r: ResultRow, inst: ExecutionInstance | undefined, patch: string | null): Safe {
  const data = (r.data ?? {}) as { execution?: ExecutionResult; logs?: Record<string, string> };
  const ex = data.execution;
  const logs = data.logs ?? {};
  const ts = ex?.tests_status;
  const applyFailed = ex?.outcome === 'apply_failed';
  const outcome = ex
    ? h`<p id="apply-status"><b>Outcome</b> ${ex.outcome}${ex.resolved_status ? ` (${ex.resolved_status})` : ''} · ${ex.applied_with ? `applied with ${ex.applied_with}` : applyFailed ? 'the patch did not apply' : ex.outcome === 'empty_patch' ? 'empty patch' : 'not applied'} · exit code ${ex.exit_code ?? '—'} · ${ex.duration_s.toFixed(1)} s</p>`
    : h`<p id="apply-status" class="muted">Not verified.</p>`;
  return h`<div class="card" id="exec"><h2>Execution</h2>
<h3>Patch</h3>${patch === null ? h`<p class="muted">No prediction.</p>` : patch.trim() ? diffBlock(patch, 'patch') : h`<p class="muted">(empty patch)</p>`}
${outcome}
${ex?.tampered?.length ? h`<div class="card error" id="tampered"><b>Tampered:</b> ${ex.tampered.join(', ')}</div>` : ''}
${ex?.dropped_files?.length ? h`<div class="card" id="dropped-files"><b>Dropped before the run</b> (the benchmark's test infrastructure): <ul>${ex.dropped_files.map((d) => h`<li><code>${d.path}</code> — ${d.reason}</li>`)}</ul></div>` : ''}
${ex ? h`<h3>Stages</h3>${stageTable(stagesOf(ex), { ...logs, ...(r.log ? { 'test_output.txt': r.log } : {}) })}` : ''}
${ex?.flaky_tests?.length ? h`<p id="flaky"><b>Flaky:</b> ${ex.flaky_tests.length} listed test(s) failed, then passed on a re-run: ${ex.flaky_tests.join(', ')}</p>` : ''}
${testList('FAIL_TO_PASS', inst?.fail_to_pass ?? [], ts?.FAIL_TO_PASS, ex)}
${testList('PASS_TO_PASS', inst?.pass_to_pass ?? [], ts?.PASS_TO_PASS, ex)}
${ex?.flags?.length ? h`<p class="muted">Checks that did not change the verdict: ${ex.flags.join(', ')}</p>` : ''}
${ex ? h`<h3>Determinism contract</h3>${contractList(ex.contract, ex)}` : ''}
<h3>Logs</h3>${logBlocks(logs, r.log, applyFailed)}
${inst ? h`<details><summary>Test patch</summary>${diffBlock(inst.test_patch, 'test-patch')}</details>` : ''}</div>`;
}
