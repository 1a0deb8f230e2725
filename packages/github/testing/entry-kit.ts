/** Building blocks of fake entries: blank entries, comments, events, closing, PR data. */
import { type FileEdit, FUNCS, MODULES, sourceEdit } from './code.ts';
import type { FakeComment, FakeEntry, FakeEvent, FakeRepo, FakeUser } from './corpus-types.ts';
import { fakeSha, type Rng } from './rng.ts';
import { ASSOCIATIONS, human } from './text.ts';

/** Head sha of PR `n` in repo `r` (it encodes both, so the fake can serve the PR's files at it). */
export function headSha(seed: string, r: number, n: number): string {
  return `e${r.toString(16).padStart(7, '0')}${n.toString(16).padStart(8, '0')}${fakeSha(`${seed}:head:${r}:${n}`).slice(0, 24)}`;
}

const EVENT_KINDS = [
  'labeled',
  'assigned',
  'mentioned',
  'subscribed',
  'renamed',
  'unlabeled',
  'milestoned',
  'referenced',
];

export interface Ctx {
  seed: string;
  repo: FakeRepo;
  rng: Rng;
  t0: number;
}

export function idBase(repo: FakeRepo, n: number): number {
  return (repo.index + 1) * 10_000_000_000 + n * 100;
}

export function blank(ctx: Ctx, n: number, kind: 'issue' | 'pr'): FakeEntry {
  const created = ctx.t0 + n * 3600;
  return {
    repo: ctx.repo.full,
    number: n,
    kind,
    gap: null,
    title: '',
    body: null,
    state: 'open',
    stateReason: null,
    user: human(ctx.rng),
    association: ctx.rng.pick(ASSOCIATIONS),
    labels: [],
    locked: false,
    createdAt: created,
    updatedAt: created + 60,
    closedAt: null,
    comments: [],
    events: [],
    crossrefs: [],
    closerPr: null,
    pull: null,
  };
}

export function comment(ctx: Ctx, e: FakeEntry, k: number, user: FakeUser | null, body: string): FakeComment {
  const at = e.createdAt + 120 * (k + 1);
  return {
    id: idBase(ctx.repo, e.number) + k,
    user,
    association: ctx.rng.pick(ASSOCIATIONS),
    body,
    createdAt: at,
    updatedAt: at,
  };
}

export function close(e: FakeEntry, at: number, reason: string): void {
  e.state = 'closed';
  e.closedAt = at;
  e.stateReason = e.kind === 'issue' ? reason : null;
}

/** Timeline events ending in `closed` (total `count`), after all other fields are set. */
export function events(ctx: Ctx, e: FakeEntry, count: number, closeCommit: string | null): void {
  const out: FakeEvent[] = [];
  const closed = e.state === 'closed';
  const others = closed ? count - 1 : count;
  for (let k = 0; k < others; k++) {
    const ev = EVENT_KINDS[k % EVENT_KINDS.length] ?? 'labeled';
    out.push({
      id: idBase(ctx.repo, e.number) + 50 + k,
      event: ev,
      actor: e.user,
      createdAt: e.createdAt + 30 * (k + 1),
      commitId: null,
      ...(ev.endsWith('labeled') ? { label: 'bug' } : {}),
    });
  }
  if (closed && e.closedAt !== null)
    out.push({
      id: idBase(ctx.repo, e.number) + 50 + others,
      event: 'closed',
      actor: e.user,
      createdAt: e.closedAt,
      commitId: closeCommit,
    });
  e.events = out;
}

export function finish(e: FakeEntry): FakeEntry {
  let last = e.closedAt ?? e.createdAt;
  for (const c of e.comments) last = Math.max(last, c.updatedAt);
  for (const ev of e.events) last = Math.max(last, ev.createdAt);
  e.updatedAt = last + 7;
  return e;
}

export function pull(ctx: Ctx, e: FakeEntry, edits: FileEdit[], merged: boolean, base: string): void {
  const at = e.createdAt + 1800;
  e.pull = {
    merged,
    mergedAt: merged ? at : null,
    base,
    headSha: headSha(ctx.seed, ctx.repo.index, e.number),
    mergeSha: merged ? fakeSha(`${ctx.seed}:merge:${ctx.repo.index}:${e.number}`) : null,
    edits,
    closing: [],
  };
  if (merged || ctx.rng.chance(0.7)) close(e, at, 'completed');
}

export function codeEdit(ctx: Ctx): { edit: FileEdit; fn: string } {
  const k = ctx.rng.int(0, MODULES - 1);
  const j = ctx.rng.int(0, FUNCS - 1);
  return { edit: sourceEdit(ctx.repo.language, ctx.repo.index, k, j, 'code'), fn: `func${j}` };
}
