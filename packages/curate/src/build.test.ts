import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applySearchReplace, parseSearchReplace } from '@faun/metrics';
import type { RawEntry } from '@faun/schema';
import { MemoryStore } from '../testing/memory-store.ts';
import { buildFromStore } from './build.ts';
import { curateStore } from './curate.ts';
import { writeDataset } from './dataset.ts';
import { DEFAULT_FILTERS } from './filters.ts';
import { LocalGitSource } from './source.ts';
import { plantedRepo, REPO } from './test-corpus.ts';

let dir = '';
let base = '';
let head = '';
let patch = '';
const BEFORE = 'def render(layout):\n    return layout.panes[0]\n\n\ndef other():\n    return 1\n';
const AFTER =
  'def render(layout):\n    if not layout.panes:\n        return None\n    return layout.panes[0]\n\n\ndef other():\n    return 1\n';

const raw = async (...args: string[]) => {
  const p = Bun.spawn(['git', '-C', dir, ...args], { stdout: 'pipe', stderr: 'pipe' });
  const out = await new Response(p.stdout).text();
  if ((await p.exited) !== 0) throw new Error(`git ${args.join(' ')} failed`);
  return out;
};
const sh = async (...args: string[]) => (await raw(...args)).trim();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'faun-curate-'));
  await sh('init', '-q', '-b', 'main');
  await sh('config', 'user.email', 't@example.com');
  await sh('config', 'user.name', 't');
  for (const [p, text] of Object.entries({
    'src/widget/layout.py': BEFORE,
    'src/widget/empty/.keep': '',
    'docs/usage.md': '# usage\n',
    '.github/tools/ci.py': 'print(1)\n',
    'tests/test_layout.py': 'def test_x():\n    pass\n',
  })) {
    await mkdir(join(dir, p, '..'), { recursive: true });
    await writeFile(join(dir, p), text);
  }
  await sh('add', '-A');
  await sh('commit', '-qm', 'base');
  base = await sh('rev-parse', 'HEAD');
  await writeFile(join(dir, 'src/widget/layout.py'), AFTER);
  await sh('commit', '-qam', 'fix');
  head = await sh('rev-parse', 'HEAD');
  const diff = await raw('diff', base, head, '--', 'src/widget/layout.py');
  // GitHub's `patch` field: the hunks only, without the final newline.
  patch = diff.slice(diff.indexOf('@@')).replace(/\n$/, '');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

function storeWithGitShas(withPatch: boolean): MemoryStore {
  const data = plantedRepo();
  data.entries = data.entries.map((e): RawEntry => {
    if (e.kind !== 'pr' || !e.pr) return e;
    const files = e.pr.files?.map((f) => ({ ...f, patch: withPatch ? patch : null }));
    return { ...e, pr: { ...e.pr, base_sha: base, head_sha: head, files } };
  });
  return new MemoryStore().add(data);
}

const commentOnly = async (_repo: string, pr: { number: number }) => pr.number === 23;

describe('curate → build over a local clone', () => {
  for (const withPatch of [true, false]) {
    test(`QA, FL and CE items (${withPatch ? 'after from the PR patch' : 'after from the head commit'})`, async () => {
      const store = storeWithGitShas(withPatch);
      const cur = await curateStore(store, { filters: DEFAULT_FILTERS, commentOnly });
      expect(store.pairList.map((p) => [p.issue, p.pr, p.semantic?.llm, p.semantic?.kept])).toEqual([
        [1, 2, 'skipped', true],
        [28, 29, 'skipped', true],
      ]);
      expect(store.funnelRows.find((r) => r.step === 'semantic')).toMatchObject({
        skipped: true,
        removed: 0,
      });
      expect(cur.agreement.total.compared).toBe(2);
      const source = new LocalGitSource({ [REPO]: dir });
      const built = await buildFromStore(store, { tasks: ['qa', 'fl', 'ce'], source });
      expect(built.skipped).toEqual([]);
      expect(built.qa.map((q) => [q.id, q.answer, q.answer_association, q.question_association])).toEqual([
        ['acme/widget#1', 'Thanks, confirmed for 1.', 'MEMBER', 'NONE'],
        ['acme/widget#28', 'Thanks, confirmed for 28.', 'MEMBER', 'NONE'],
      ]);
      expect(built.fl[0]).toMatchObject({
        base_commit: base,
        gold_path: 'src/widget/layout.py',
        tree: ['src/widget/layout.py', 'tests/test_layout.py'],
        language: 'python',
      });
      const ce = built.ce[0];
      expect(ce).toMatchObject({
        file_before: BEFORE,
        file_after: AFTER,
        pr_number: 2,
        path: 'src/widget/layout.py',
      });
      const applied = applySearchReplace(BEFORE, parseSearchReplace(ce?.gold_patch ?? '').blocks);
      expect(applied.ok && applied.result).toBe(AFTER);
    });
  }

  test('building twice gives byte-identical datasets with the same content hash', async () => {
    const outs: string[] = [];
    const hashes: string[] = [];
    for (const k of [0, 1]) {
      const store = storeWithGitShas(true);
      await curateStore(store, { filters: DEFAULT_FILTERS, commentOnly });
      const built = await buildFromStore(store, {
        tasks: ['qa', 'fl', 'ce'],
        source: new LocalGitSource({ [REPO]: dir }),
      });
      const out = join(dir, `..`, `${dir.split('/').pop()}-out${k}`);
      outs.push(out);
      const card = await writeDataset(
        out,
        { qa: [...built.qa].reverse(), fl: built.fl, ce: built.ce },
        { name: 'planted', source: 'test', funnel: store.funnelRows, skipped: built.skipped },
      );
      hashes.push(card.content_hash);
    }
    expect(hashes[0]).toBe(hashes[1] as string);
    for (const f of ['qa.jsonl', 'fl.jsonl', 'ce.jsonl', 'card.json', 'README.md'])
      expect(await readFile(join(outs[0] as string, f), 'utf8')).toBe(
        await readFile(join(outs[1] as string, f), 'utf8'),
      );
    const qa = (await readFile(join(outs[0] as string, 'qa.jsonl'), 'utf8')).split('\n');
    expect(qa[0]?.startsWith('{"answer":')).toBe(true);
    expect(JSON.parse(qa[0] as string).id).toBe('acme/widget#1');
    const readme = await readFile(join(outs[0] as string, 'README.md'), 'utf8');
    expect(readme).toContain('| qa | 2 | python 2 | 1 |');
    for (const o of outs) await rm(o, { recursive: true, force: true });
  });

  test('without a file source FL and CE are skipped with the reason; QA still builds', async () => {
    const store = storeWithGitShas(true);
    await curateStore(store, { filters: DEFAULT_FILTERS, commentOnly });
    const built = await buildFromStore(store, { tasks: ['qa', 'fl', 'ce'], source: null });
    expect(built.qa.length).toBe(2);
    expect(built.skipped.map((s) => `${s.id} ${s.task} ${s.reason}`)).toEqual([
      'acme/widget#1 fl no file source (--repo-dir or --api-url)',
      'acme/widget#1 ce no file source (--repo-dir or --api-url)',
      'acme/widget#28 fl no file source (--repo-dir or --api-url)',
      'acme/widget#28 ce no file source (--repo-dir or --api-url)',
    ]);
  });
});
