/**
 * Pure conversions between faun records and table rows (value arrays in column order), the
 * order-independent merge of two versions of a row, and row fingerprints.
 * @module
 */
import {
  type Comment,
  type CrossRef,
  type FixPair,
  FunnelRow,
  type IssueEvent,
  type PrFile,
  type RawEntry,
  stableStringify,
} from '@faun/schema';
import type { Checkpoint } from './batch.ts';
import type { TableDef } from './tables.ts';

/** One row: values in the table's column order (lists as arrays, BIGINTs as numbers). */
export type Row = unknown[];

const n = <T>(x: T | undefined): T | null => (x === undefined ? null : x);

/** RawEntry → `entries` row, without the trailing `fp` column. */
export function entryToRow(e: RawEntry): Row {
  const pr = e.pr ?? null;
  return [
    e.repo,
    e.number,
    e.kind,
    n(e.node_id),
    e.title,
    e.body,
    e.state,
    n(e.state_reason),
    e.author?.login ?? null,
    e.author?.type ?? null,
    n(e.author_association),
    e.labels,
    e.locked,
    e.comments_count,
    e.created_at,
    e.updated_at,
    n(e.closed_at),
    n(e.transferred_to),
    n(e.default_branch),
    pr ? pr.merged : null,
    pr ? pr.merged_at : null,
    pr ? pr.base_ref : null,
    n(pr?.base_sha),
    n(pr?.head_sha),
    n(pr?.merge_commit_sha),
    n(pr?.changed_files),
    n(pr?.additions),
    n(pr?.deletions),
    n(pr?.closing_issues),
    pr?.files == null ? null : JSON.stringify(pr.files),
  ];
}

type Obj = Record<string, unknown>;
const s = (x: unknown): string | null => (x == null ? null : String(x));
const num = (x: unknown): number | null => (x == null ? null : Number(x));
const actor = (login: unknown, type: unknown) =>
  login == null ? null : { login: String(login), type: String(type) };

/** An `entries` row (as an object keyed by column) → RawEntry. Absent optional fields come back as null. */
export function rowToEntry(r: Obj): RawEntry {
  const isPr = r.pr_merged != null;
  return {
    v: 1,
    repo: String(r.repo),
    number: Number(r.number),
    kind: r.kind as RawEntry['kind'],
    node_id: s(r.node_id),
    title: String(r.title),
    body: s(r.body),
    state: r.state as RawEntry['state'],
    state_reason: s(r.state_reason),
    author: actor(r.author_login, r.author_type),
    author_association: s(r.author_association),
    labels: (r.labels as string[] | null) ?? [],
    locked: Boolean(r.locked),
    comments_count: Number(r.comments_count ?? 0),
    created_at: String(r.created_at),
    updated_at: String(r.updated_at),
    closed_at: s(r.closed_at),
    transferred_to: s(r.transferred_to),
    default_branch: s(r.default_branch),
    pr: isPr
      ? {
          merged: Boolean(r.pr_merged),
          merged_at: s(r.pr_merged_at),
          base_ref: String(r.pr_base_ref),
          base_sha: s(r.pr_base_sha),
          head_sha: s(r.pr_head_sha),
          merge_commit_sha: s(r.pr_merge_commit_sha),
          changed_files: num(r.pr_changed_files),
          additions: num(r.pr_additions),
          deletions: num(r.pr_deletions),
          closing_issues: (r.pr_closing_issues as number[] | null) ?? null,
          files: r.pr_files == null ? null : (JSON.parse(String(r.pr_files)) as PrFile[]),
        }
      : null,
  };
}

export function commentToRow(c: Comment): Row {
  return [
    c.repo,
    c.number,
    c.id,
    c.author?.login ?? null,
    c.author?.type ?? null,
    n(c.author_association),
    c.body,
    c.created_at,
    n(c.updated_at),
  ];
}

export function rowToComment(r: Obj): Comment {
  const c: Comment = {
    v: 1,
    repo: String(r.repo),
    number: Number(r.number),
    id: Number(r.id),
    author: actor(r.author_login, r.author_type),
    author_association: s(r.author_association),
    body: String(r.body),
    created_at: String(r.created_at),
  };
  if (r.updated_at != null) c.updated_at = String(r.updated_at);
  return c;
}

export function eventToRow(e: IssueEvent): Row {
  return [
    e.repo,
    e.number,
    e.id,
    e.event,
    e.actor?.login ?? null,
    e.actor?.type ?? null,
    e.created_at,
    n(e.commit_id),
    n(e.closer),
  ];
}

export function rowToEvent(r: Obj): IssueEvent {
  return {
    v: 1,
    repo: String(r.repo),
    number: Number(r.number),
    id: String(r.id),
    event: String(r.event),
    actor: actor(r.actor_login, r.actor_type),
    created_at: String(r.created_at),
    commit_id: s(r.commit_id),
    closer: s(r.closer),
  };
}

export function crossrefToRow(x: CrossRef): Row {
  return [
    x.target_repo,
    x.target_number,
    x.source_repo,
    x.source_number,
    x.via,
    x.source_kind,
    x.will_close_target,
    x.created_at,
  ];
}

export function rowToCrossref(r: Obj): CrossRef {
  return {
    v: 1,
    target_repo: String(r.target_repo),
    target_number: Number(r.target_number),
    source_repo: String(r.source_repo),
    source_number: Number(r.source_number),
    via: r.via as CrossRef['via'],
    source_kind: r.source_kind as CrossRef['source_kind'],
    will_close_target: r.will_close_target == null ? null : Boolean(r.will_close_target),
    created_at: String(r.created_at),
  };
}

export function prFileToRow(repo: string, number: number, f: PrFile): Row {
  return [repo, number, f.filename, f.status, f.additions, f.deletions, n(f.patch), n(f.previous_filename)];
}

export function rowToPrFile(r: Obj): PrFile {
  return {
    filename: String(r.filename),
    status: String(r.status),
    additions: Number(r.additions),
    deletions: Number(r.deletions),
    patch: s(r.patch),
    previous_filename: s(r.previous_filename),
  };
}

/** Total order on stored values (null lowest), used by the tie merge. */
export function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a == null) return -1;
  if (b == null) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return a ? 1 : -1;
  const x = typeof a === 'string' ? a : JSON.stringify(a);
  const y = typeof b === 'string' ? b : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Index of a column in a table definition (throws on a typo). */
export function columnIndex(t: TableDef, name: string): number {
  const i = t.columns.findIndex((c) => c.name === name);
  if (i < 0) throw new Error(`internal: table ${t.name} has no column ${name}`);
  return i;
}

/**
 * Combines two versions of the same row: the newer version column wins; on a tie each column keeps the
 * greater value (null lowest). Commutative and associative, so ingest order does not matter.
 */
export function mergeRows(a: Row, b: Row, versionAt: number | null): Row {
  if (versionAt !== null) {
    const c = compareValues(a[versionAt], b[versionAt]);
    if (c > 0) return a;
    if (c < 0) return b;
  }
  return a.map((x, i) => (compareValues(x, b[i]) >= 0 ? x : b[i]));
}

/** A 64-bit fingerprint of a row's values. */
export function fingerprint(row: Row): bigint {
  return BigInt.asIntN(64, BigInt(Bun.hash(JSON.stringify(row))));
}

/** Keys a row by the given column positions. */
export function rowKey(row: Row, keyAt: number[]): string {
  return JSON.stringify(keyAt.map((i) => row[i]));
}

/** Dedupe rows by key: merged (merge tables) or last-wins (replace tables), in first-seen order. */
export function dedupeRows(rows: Row[], keyAt: number[], versionAt: number | null, merge: boolean): Row[] {
  const by = new Map<string, Row>();
  for (const r of rows) {
    const k = rowKey(r, keyAt);
    const prev = by.get(k);
    by.set(k, prev && merge ? mergeRows(prev, r, versionAt) : r);
  }
  return [...by.values()];
}

/** A `checkpoints` row → Checkpoint (absent counters stay absent). */
export function rowToCheckpoint(r: Record<string, unknown>): Checkpoint {
  const c: Checkpoint = {
    repo: String(r.repo),
    stream: String(r.stream),
    cursor: r.cursor == null ? null : String(r.cursor),
    done: Boolean(r.done),
    updated_at: String(r.updated_at),
  };
  if (r.requests != null) c.requests = Number(r.requests);
  if (r.items != null) c.items = Number(r.items);
  return c;
}

/** FixPair → `pairs` row. */
export function pairToRow(p: FixPair, runId: string | null): Row {
  const e = p.evidence;
  return [
    p.repo,
    p.issue,
    p.pr,
    e.text_reference,
    e.closing_keyword,
    e.cross_ref_event,
    e.github_closing,
    runId,
  ];
}

export function rowToPair(r: Obj): FixPair {
  return {
    v: 1,
    repo: String(r.repo),
    issue: Number(r.issue),
    pr: Number(r.pr),
    evidence: {
      text_reference: Boolean(r.text_reference),
      closing_keyword: Boolean(r.closing_keyword),
      cross_ref_event: Boolean(r.cross_ref_event),
      github_closing: r.github_closing == null ? null : Boolean(r.github_closing),
    },
  };
}

/** FunnelRow → `funnel` row (a missing run id is ''). */
export function funnelToRow(f: FunnelRow): Row {
  return [
    f.run_id ?? '',
    f.repo,
    f.order,
    f.step,
    f.unit,
    f.input,
    f.removed,
    f.output,
    f.skipped,
    stableStringify(f.undecided),
  ];
}

export function rowToFunnel(r: Obj): FunnelRow {
  return {
    run_id: String(r.run_id),
    repo: String(r.repo),
    order: Number(r.step_order),
    step: String(r.step),
    unit: r.unit as FunnelRow['unit'],
    input: Number(r.input),
    removed: Number(r.removed),
    output: Number(r.output),
    skipped: Boolean(r.skipped),
    undecided: FunnelRow.shape.undecided.parse(JSON.parse(String(r.undecided ?? '{}'))),
  };
}
