/**
 * Multi-SWE-bench's own report code against faun's derivation, on the same three stage logs: for every
 * instance `faun validate --stage-logs DIR` kept (run.log, test-patch-run.log, fix-patch-run.log,
 * instance.json), faun parses the logs with the parser it used and derives validity and the f2p / p2p /
 * s2p / n2p / fixed lists (`deriveMsb`); bench/scripts/msb_report.py runs the reference's instance class,
 * parse_log and generate_report on the same files. Any difference is a mismatch, listed per instance
 * and field. Instances whose repository has no class in the reference are counted as not comparable.
 * With the validation journal (`recordedSides`), what `faun validate` recorded for each instance is
 * compared too (fields `recorded <field>`): the verdict faun kept, not only a derivation redone here.
 *
 *   git --git-dir=<Multi-SWE-bench mirror> archive HEAD multi_swe_bench | tar -x -C /tmp/msb
 *   bun run bench msb-parity --msb-src /tmp/msb --logs <work>/stages [--journal <work>/valid.jsonl.journal.jsonl]
 * (Debian: python3-dataclasses-json python3-unidiff; /usr/bin/python3.)
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deriveMsb, isParserName, openJournal, parseLog } from '@faun/harness';
import { PrerequisiteError, UsageError } from '@faun/kit';
import { type FlagDefaults, parseFlags } from '../args.ts';

export const FLAGS = { 'msb-src': undefined, logs: undefined, journal: undefined } satisfies FlagDefaults;

const SCRIPT = resolve(import.meta.dir, '../../scripts/msb_report.py');
const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
const FIELDS = ['valid', 'f2p', 'p2p', 's2p', 'n2p', 'fixed'] as const;

/**
 * Fails before any work when `--msb-src` cannot run the reference's report code: no `multi_swe_bench` folder
 * in DIR, or a Python (`py`) that cannot import the modules it needs. Returns DIR resolved. Checked when a run
 * starts, so that a run of hours does not end on a missing package.
 */
export function requireMsbReference(src: string, py = PY): string {
  const dir = resolve(src);
  if (!existsSync(join(dir, 'multi_swe_bench')))
    throw new UsageError(`--msb-src ${src}: no multi_swe_bench folder there`, {
      hint: 'extract the tree: git --git-dir=<Multi-SWE-bench mirror> archive HEAD multi_swe_bench | tar -x -C DIR',
    });
  let why: string | null;
  try {
    const p = Bun.spawnSync([py, '-c', 'import dataclasses_json, unidiff'], {
      stdout: 'ignore',
      stderr: 'pipe',
    });
    why = p.exitCode === 0 ? null : p.stderr.toString().trim().split('\n').at(-1) || `exit ${p.exitCode}`;
  } catch (e) {
    why = (e as Error).message;
  }
  if (why !== null) {
    throw new PrerequisiteError(`${py} cannot import what Multi-SWE-bench's report code needs (${why})`, {
      hint: 'apt-get install -y python3-dataclasses-json python3-unidiff',
    });
  }
  return dir;
}

export interface Mismatch {
  instance_id: string;
  field: string;
  faun: unknown;
  reference: unknown;
}

export interface Parity {
  compared: number;
  not_comparable: Record<string, string>;
  mismatches: Mismatch[];
  /** instance id → whether faun and the reference agree on every field. */
  agree: Record<string, boolean>;
  /** instance id → how many flaky tests its recorded row dropped (compared without them, validity not). */
  recorded_flaky: Record<string, number>;
}

type Row = Record<string, unknown> & { instance_id: string };

/** faun's derivation of one kept instance directory (single repeat per stage, as the reference reads). */
export function faunSide(dir: string): Row | null {
  const meta = JSON.parse(readFileSync(join(dir, 'instance.json'), 'utf8')) as {
    instance_id: string;
    parser: string | null;
  };
  const files = ['run.log', 'test-patch-run.log', 'fix-patch-run.log'].map((f) => join(dir, f));
  if (!meta.parser || !isParserName(meta.parser) || !files.every((f) => existsSync(f))) return null;
  const parser = meta.parser;
  const [run, test, fix] = files.map((f) => parseLog(parser, readFileSync(f, 'utf8')));
  const d = deriveMsb([run ?? {}], [test ?? {}], [fix ?? {}]);
  return { instance_id: meta.instance_id, ...sides(d) };
}

const sorted = (xs: string[] | undefined) => [...(xs ?? [])].sort();

interface Sides {
  valid: boolean;
  f2p?: string[];
  pass_to_pass?: string[];
  s2p?: string[];
  n2p?: string[];
  fixed?: string[];
}

/** A derivation's validity and its lists, sorted (the four test lists empty when it is not valid). */
function sides(d: Sides) {
  return {
    valid: d.valid,
    f2p: d.valid ? sorted(d.f2p) : [],
    p2p: d.valid ? sorted(d.pass_to_pass) : [],
    s2p: d.valid ? sorted(d.s2p) : [],
    n2p: d.valid ? sorted(d.n2p) : [],
    fixed: sorted(d.fixed),
  };
}

/** One instance's row as `faun validate` recorded it under Multi-SWE-bench's rule (`valid.jsonl.journal.jsonl`). */
export function recordedSides(journal: string): Map<string, Row> {
  const out = new Map<string, Row>();
  // The journal's reader: a torn last line is skipped, a later entry of an instance replaces an earlier one.
  for (const v of openJournal(journal).validations()) {
    const m = v.msb;
    if (!m) continue;
    out.set(v.instance_id, { instance_id: v.instance_id, ...sides(m), flaky: sorted(m.flaky) });
  }
  return out;
}

/** The fields on which faun's row differs from the reference's (lists only where the reference is valid). */
export function differing(mine: Row, theirs: Row): string[] {
  // The reference fills the lists only for valid instances (its check returns early otherwise).
  return FIELDS.filter(
    (f) =>
      (f === 'valid' || f === 'fixed' || theirs.valid) &&
      JSON.stringify(mine[f]) !== JSON.stringify(theirs[f]),
  );
}

/**
 * The fields on which faun's re-derived row (`mine`) and its recorded row (`kept`, fields `recorded <f>`)
 * differ from the reference's. A recorded row that dropped flaky tests (their status changed between
 * repeats) is compared with the reference's one-run reading of repeat 1's logs less those tests; its
 * validity is then not compared (a flaky test can decide the reference's), and where the reference is
 * invalid nothing is.
 */
export function compareInstance(mine: Row, theirs: Row, kept?: Row): Mismatch[] {
  const id = mine.instance_id;
  const flaky = new Set((kept?.flaky as string[] | undefined) ?? []);
  const ref = flaky.size ? withoutTests(theirs, flaky) : theirs;
  const recordedDiffs = kept
    ? differing(kept, ref).filter((f) => !flaky.size || (f !== 'valid' && ref.valid))
    : [];
  return [
    ...differing(mine, theirs).map((f) => ({
      instance_id: id,
      field: f,
      faun: mine[f],
      reference: theirs[f],
    })),
    ...recordedDiffs.map((f) => ({
      instance_id: id,
      field: `recorded ${f}`,
      faun: kept![f],
      reference: ref[f],
    })),
  ];
}

/** `row` with the tests `drop` left out of its lists. */
function withoutTests(row: Row, drop: Set<string>): Row {
  const out: Row = { ...row };
  for (const [k, v] of Object.entries(row)) if (Array.isArray(v)) out[k] = v.filter((t) => !drop.has(t));
  return out;
}

/** Compares both sides over every instance directory under `logs` (and the recorded rows, when given). */
export function msbParity(logs: string, msbSrc: string, recorded = new Map<string, Row>()): Parity {
  const p = Bun.spawnSync([PY, SCRIPT, '--msb-src', msbSrc, '--logs', logs], {
    stdout: 'pipe',
    stderr: 'pipe',
  });
  if (p.exitCode !== 0)
    throw new Error(`msb_report.py failed (exit ${p.exitCode}): ${p.stderr.toString().slice(-2000)}`);
  const ref = new Map(
    p.stdout
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Row)
      .map((r) => [r.instance_id, r]),
  );
  const out: Parity = { compared: 0, not_comparable: {}, mismatches: [], agree: {}, recorded_flaky: {} };
  for (const name of readdirSync(logs).sort()) {
    const dir = join(logs, name);
    if (!existsSync(join(dir, 'instance.json'))) continue;
    const mine = faunSide(dir);
    const id = mine?.instance_id ?? name;
    const theirs = ref.get(id);
    if (!mine || !theirs || theirs.error_kind) {
      out.not_comparable[id] = String(
        theirs?.error_kind ?? (mine ? 'no reference output' : 'no parser or logs'),
      );
      continue;
    }
    out.compared++;
    const kept = recorded.get(id);
    const flaky = (kept?.flaky as string[] | undefined) ?? [];
    if (flaky.length) out.recorded_flaky[id] = flaky.length;
    const diffs = compareInstance(mine, theirs, kept);
    out.mismatches.push(...diffs);
    out.agree[id] = diffs.length === 0;
  }
  return out;
}

export default async function msbParityBench(args: string[]): Promise<Record<string, unknown>> {
  const f = parseFlags('msb-parity', args, FLAGS);
  if (!f['msb-src'])
    throw new UsageError(
      '--msb-src DIR is required: an extracted Multi-SWE-bench tree (DIR/multi_swe_bench)',
    );
  const src = requireMsbReference(f['msb-src']);
  if (!f.logs || !existsSync(f.logs))
    throw new UsageError('--logs DIR is required: a `faun validate --stage-logs` folder');
  const r = msbParity(resolve(f.logs), src, f.journal ? recordedSides(resolve(f.journal)) : undefined);
  console.log(
    `${r.compared} instances compared, ${r.mismatches.length} mismatching fields, ${Object.keys(r.not_comparable).length} not comparable, ${Object.keys(r.recorded_flaky).length} recorded rows with flaky tests dropped (compared without them)`,
  );
  for (const m of r.mismatches.slice(0, 20))
    console.log(
      `  ${m.instance_id} ${m.field}: faun ${JSON.stringify(m.faun)} reference ${JSON.stringify(m.reference)}`,
    );
  for (const [id, why] of Object.entries(r.not_comparable)) console.log(`  not comparable: ${id}: ${why}`);
  return { ...r };
}
