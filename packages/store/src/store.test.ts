import { describe, expect, test } from 'bun:test';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FaunError, InputError } from '@faun/kit';
import { RawEntry } from '@faun/schema';
import { crawlPages, makeComment, makeCrossref, makeEntry, makeEvent, rng } from '../testing/synthetic.ts';
import { tempDbs } from '../testing/temp-db.ts';
import type { CrawlBatch } from './batch.ts';
import { Store } from './store.ts';

const tmp = tempDbs('faun-store-', 's');
const { fresh } = tmp;

/** A small crawl with every record kind, as pages. */
function pages(): CrawlBatch[] {
  const r = rng(3);
  const out: CrawlBatch[] = [...crawlPages({ seed: 11, total: 600, repos: 2, pageSize: 100 })];
  const repo = 'org0/repo0';
  out.push({
    comments: [1, 2, 3].map((i) => makeComment(r, repo, i, 1000 + i)),
    events: [makeEvent(repo, 1, 'e1', 'org0/repo0#2'), makeEvent(repo, 3, 'e3')],
    crossrefs: [makeCrossref(repo, 1, 2, true), makeCrossref(repo, 3, 4, null)],
    prFiles: [
      { repo, number: 2, files: [{ filename: 'a.py', status: 'modified', additions: 1, deletions: 0 }] },
    ],
    repos: [{ repo, default_branch: 'main', language: 'Python', fetched_at: '2026-01-01T00:00:00Z' }],
    checkpoint: { repo, stream: 'comments', cursor: null, done: true, updated_at: '2026-01-01T00:00:00Z' },
  });
  return out;
}

/** (repo, number) pairs stored more than once: the writer must keep entries unique. */
async function dupes(s: Store): Promise<number> {
  const [r] = await s.all<{ n: number }>(
    'SELECT count(*) AS n FROM (SELECT repo, number FROM entries GROUP BY ALL HAVING count(*) > 1)',
  );
  return r?.n ?? -1;
}

async function load(path: string, batches: CrawlBatch[], commit = {}): Promise<Store> {
  const s = await Store.open(path, { commit });
  for (const b of batches) await s.ingest(b);
  return s;
}

describe('ingest', () => {
  test('re-ingesting the same batches changes neither the hash nor the counts', async () => {
    const s = await load(fresh(), pages());
    const hash = await s.contentHash();
    const counts = await s.counts();
    expect(counts.find((c) => c.repo === 'org0/repo0')?.comments).toBe(3);
    for (const b of pages()) await s.ingest(b);
    expect(await s.contentHash()).toBe(hash);
    expect(await s.counts()).toEqual(counts);
    expect(await dupes(s)).toBe(0);
    await s.close();
  });

  test('after reopening, re-ingest is still a no-op and a newer row still replaces', async () => {
    const path = fresh();
    const s = await load(path, pages());
    const hash = await s.contentHash();
    await s.close();
    const again = await load(path, pages());
    expect(await again.contentHash()).toBe(hash);
    const e = (await again.entry('org0/repo0', 5)) as RawEntry;
    await again.ingest({ entries: [{ ...e, title: 'edited', updated_at: '2030-01-01T00:00:00Z' }] });
    expect((await again.entry('org0/repo0', 5))?.title).toBe('edited');
    expect(await dupes(again)).toBe(0);
    await again.close();
  });

  test('content hash does not depend on ingest order or batching', async () => {
    const a = await load(fresh(), pages());
    const shuffled = pages().reverse();
    const all = shuffled.flatMap((p) => p.entries ?? []);
    const r = rng(5);
    all.sort(() => r() - 0.5);
    const rest = shuffled.map((p) => ({ ...p, entries: [] }));
    const b = await load(fresh(), [...rest, { entries: all.slice(0, 250) }, { entries: all.slice(250) }], {
      maxBatches: 1,
    });
    expect(await b.contentHash()).toBe(await a.contentHash());
    expect(await dupes(b)).toBe(0);
    const c = await load(fresh(), pages().slice(1));
    expect(await c.contentHash()).not.toBe(await a.contentHash());
    await Promise.all([a.close(), b.close(), c.close()]);
  });

  test('comments, events and cross-references merge the same way in either order', async () => {
    const r = rng(8);
    const c1 = makeComment(r, 'o/r', 1, 10);
    const edited = { ...c1, body: 'edited', updated_at: '2030-01-01T00:00:00Z' };
    const restRef = makeCrossref('o/r', 1, 2, null);
    const gqlRef = { ...restRef, will_close_target: true };
    const restEvent = makeEvent('o/r', 1, 'e1');
    const gqlEvent = makeEvent('o/r', 1, 'e1', 'o/r#2');
    const a: CrawlBatch[] = [
      { comments: [c1], crossrefs: [restRef], events: [restEvent] },
      { comments: [edited], crossrefs: [gqlRef], events: [gqlEvent] },
    ];
    const one = await load(fresh(), a);
    const two = await load(fresh(), [...a].reverse(), { maxBatches: 1 });
    expect(await two.contentHash()).toBe(await one.contentHash());
    expect((await one.comments('o/r')).map((c) => c.body)).toEqual(['edited']);
    expect((await one.crossrefs('o/r', 1))[0]?.will_close_target).toBe(true);
    expect((await two.events('o/r', 1))[0]?.closer).toBe('o/r#2');
    await Promise.all([one.close(), two.close()]);
  });

  test('a newer updated_at replaces, an older one is ignored, an equal one fills missing fields', async () => {
    const s = await Store.open(fresh());
    const base = makeEntry(rng(1), 'o/r', 7);
    await s.ingest({ entries: [{ ...base, title: 'v1', updated_at: '2024-01-01T00:00:00Z' }] });
    await s.ingest({ entries: [{ ...base, title: 'v2', updated_at: '2024-02-01T00:00:00Z' }] });
    expect((await s.entry('o/r', 7))?.title).toBe('v2');
    await s.ingest({ entries: [{ ...base, title: 'v0', updated_at: '2023-01-01T00:00:00Z' }] });
    expect((await s.entry('o/r', 7))?.title).toBe('v2');
    await s.ingest({
      entries: [
        { ...base, title: 'v2', node_id: null, updated_at: '2024-02-01T00:00:00Z', transferred_to: 'x/y' },
      ],
    });
    const got = await s.entry('o/r', 7);
    expect(got?.transferred_to).toBe('x/y');
    expect(got?.node_id).toBe(base.node_id ?? null);
    expect(await dupes(s)).toBe(0);
    const [row] = await s.all<{ n: number }>("SELECT count(*) AS n FROM entries WHERE repo = 'o/r'");
    expect(row?.n).toBe(1);
    await s.close();
  });
});

describe('ingest failures and round trips', () => {
  test('a batch with a bad record fails whole, names the record, and leaves the store unchanged', async () => {
    const s = await load(fresh(), pages());
    const before = await s.contentHash();
    const good = makeEntry(rng(2), 'org9/new', 1);
    const bad = { ...makeEntry(rng(2), 'org9/new', 2), state: 'merged' } as unknown as RawEntry;
    const err = await s
      .ingest({
        entries: [good, bad],
        checkpoint: {
          repo: 'org9/new',
          stream: 'issues',
          cursor: 'x',
          done: false,
          updated_at: '2026-01-01T00:00:00Z',
        },
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect(String((err as Error).message)).toContain('entries[1] (org9/new#2) field "state"');
    expect(await s.contentHash()).toBe(before);
    expect(await s.checkpoint('org9/new', 'issues')).toBeNull();
    await s.close();
  });

  test('a batch the database rejects fails alone; earlier batches of its group are kept', async () => {
    const path = fresh();
    const s = await Store.open(path, { commit: { maxBatches: 100, maxDelayMs: 60_000 } });
    await s.ingest({ entries: [makeEntry(rng(1), 'o/r', 1)] });
    // Valid for the schema (an integer) but out of range for the INTEGER column.
    const huge = { ...makeEntry(rng(1), 'o/r', 3), number: 3_000_000_000 };
    const err = await s.ingest({ entries: [makeEntry(rng(1), 'o/r', 2), huge] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(FaunError);
    expect((err as Error).message).toContain('nothing from this batch was written');
    await s.close();
    const again = await Store.open(path, { readOnly: true });
    const got: number[] = [];
    for await (const e of again.entries()) got.push(e.number);
    expect(got).toEqual([1]);
    await again.close();
  });

  test('after a rolled-back first batch, the staging tables still work', async () => {
    const s = await Store.open(fresh(), { commit: { maxBatches: 1 } });
    const r = rng(4);
    const bad = { ...makeComment(r, 'o/r', 1, 1), number: 3_000_000_000 };
    await expect(s.ingest({ comments: [bad] })).rejects.toThrow('nothing from this batch was written');
    await s.ingest({ comments: [makeComment(r, 'o/r', 1, 2)] });
    expect((await s.comments('o/r')).map((c) => c.id)).toEqual([2]);
    await s.close();
  });

  test('entries round-trip through the store', async () => {
    const s = await Store.open(fresh());
    const r = rng(9);
    const sent = [1, 2, 3, 4, 5, 6].map((i) => RawEntry.parse(makeEntry(r, 'o/r', i)));
    const pr = {
      merged: true,
      merged_at: null,
      base_ref: 'main',
      base_sha: 'abc',
      head_sha: null,
      merge_commit_sha: null,
      changed_files: 1,
      additions: null,
      deletions: null,
      closing_issues: [3],
      files: [
        { filename: 'x', status: 'added', additions: 1, deletions: 0, patch: null, previous_filename: null },
      ],
    };
    sent[0] = { ...(sent[0] as RawEntry), kind: 'pr', author: null, body: null, pr };
    await s.ingest({ entries: sent });
    const got: RawEntry[] = [];
    for await (const e of s.entries({ repo: 'o/r' })) got.push(e);
    expect(got).toEqual(sent);
    const prs: number[] = [];
    for await (const e of s.entries({ repo: 'o/r', kind: 'pr' })) prs.push(e.number);
    expect(prs).toEqual(sent.filter((e) => e.kind === 'pr').map((e) => e.number));
    await s.close();
  });
});

describe('checkpoints and durability', () => {
  test('the latest checkpoint per stream survives reopening', async () => {
    const path = fresh();
    const s = await load(path, pages(), { maxBatches: 3 });
    await s.close();
    const again = await Store.open(path, { readOnly: true });
    const cp = await again.checkpoint('org0/repo0', 'issues');
    expect(cp).toMatchObject({ cursor: null, done: true, items: 300 });
    expect((await again.checkpoints()).map((c) => `${c.repo}:${c.stream}`)).toEqual([
      'org0/repo0:comments',
      'org0/repo0:issues',
      'org1/repo1:issues',
    ]);
    await again.close();
  });

  for (const maxBatches of [1, 7]) {
    test(`SIGKILL mid-crawl leaves rows consistent with the last committed checkpoint (group ${maxBatches})`, async () => {
      const path = fresh();
      const child = Bun.spawn(
        ['bun', join(import.meta.dir, '..', 'testing', 'crash-child.ts'), path, String(maxBatches)],
        {
          stdout: 'pipe',
          stderr: 'inherit',
        },
      );
      const reader = child.stdout.getReader();
      let seen = '';
      while (!/page (2[0-9]|[3-9][0-9])\b/.test(seen)) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += new TextDecoder().decode(value);
      }
      child.kill('SIGKILL');
      await child.exited;
      const s = await Store.open(path);
      const cp = await s.checkpoint('org0/repo0', 'issues');
      const [row] = await s.all<{ n: number; hi: number | null }>(
        "SELECT count(*) AS n, max(number) AS hi FROM entries WHERE repo = 'org0/repo0'",
      );
      expect(cp?.items).toBeGreaterThan(0);
      expect(row?.n).toBe(cp?.items ?? -1);
      expect(row?.hi).toBe(cp?.items ?? -1);
      await s.close();
    }, 60_000);
  }

  test('a process that exits without close() still commits its pending batches', async () => {
    const path = fresh();
    const script = `const {Store}=await import(${JSON.stringify(join(import.meta.dir, 'index.ts'))});
      const {makeEntry,rng}=await import(${JSON.stringify(join(import.meta.dir, '..', 'testing', 'synthetic.ts'))});
      const s=await Store.open(${JSON.stringify(path)},{commit:{maxBatches:1000,maxDelayMs:600000}});
      await s.ingest({entries:[makeEntry(rng(1),'o/r',1),makeEntry(rng(2),'o/r',2)]});`;
    const child = Bun.spawn(['bun', '-e', script], { stderr: 'inherit' });
    expect(await child.exited).toBe(0);
    const s = await Store.open(path, { readOnly: true });
    const [row] = await s.all<{ n: number }>('SELECT count(*) AS n FROM entries');
    expect(row?.n).toBe(2);
    await s.close();
  }, 30_000);
});

describe('open', () => {
  test('a new store in a directory that does not exist yet is created', async () => {
    const s = await Store.open(join(tmp.dir, 'new', 'sub', 'x.duckdb'));
    expect(await s.counts()).toEqual([]);
    await s.close();
  });

  test('opening a store twice in one process says so', async () => {
    const path = fresh();
    const first = await Store.open(path);
    const err = await Store.open(path).catch((e: unknown) => e);
    await first.close();
    expect(err).toBeInstanceOf(FaunError);
    expect((err as Error).message).toContain('already open in this process');
  });

  test('read-only open of a missing file says so', async () => {
    const err = await Store.open(join(tmp.dir, 'nope.duckdb'), { readOnly: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toContain('does not exist');
  });

  test('a store of schema version 1 gains the funnel undecided column when opened', async () => {
    const path = fresh();
    const row = { repo: 'a/b', step: 's', order: 0, unit: 'pair' as const, input: 2, removed: 0, output: 2 };
    const v1 = await Store.open(path);
    await v1.all('ALTER TABLE funnel DROP COLUMN undecided');
    await v1.all('DELETE FROM faun_migrations WHERE version = 2');
    await v1.close();
    const s = await Store.open(path);
    expect((await s.all<{ version: number }>('SELECT version FROM faun_migrations ORDER BY 1')).length).toBe(
      2,
    );
    await s.putFunnel([{ ...row, skipped: false, undecided: { 'no file source': 2 } }]);
    expect((await s.funnel()).map((f) => f.undecided)).toEqual([{ 'no file source': 2 }]);
    await s.close();
  });

  test('a DuckDB file that is not a faun store is rejected', async () => {
    const path = fresh();
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create(path);
    const c = await inst.connect();
    await c.run('CREATE TABLE other (x INTEGER)');
    c.closeSync();
    inst.closeSync();
    const err = await Store.open(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as Error).message).toContain('not a faun store');
  });

  test('a file that is not a DuckDB database (e.g. JSONL) is rejected, read-only or not', async () => {
    const path = join(tmp.dir, 'pairs.jsonl');
    await Bun.write(path, '{"hyp": "a", "ref": "b"}\n');
    for (const readOnly of [true, false]) {
      const err = await Store.open(path, { readOnly }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toBe(`${path} is not a DuckDB database, so not a faun store`);
    }
    expect(await Bun.file(path).text()).toBe('{"hyp": "a", "ref": "b"}\n');
  });

  test('a store locked by another process names that process', async () => {
    const path = fresh();
    (await Store.open(path)).close();
    const child = Bun.spawn(
      [
        'bun',
        '-e',
        `const {Store}=await import(${JSON.stringify(join(import.meta.dir, 'index.ts'))});await Store.open(${JSON.stringify(path)});console.log('open');await Bun.sleep(30000)`,
      ],
      { stdout: 'pipe', stderr: 'inherit' },
    );
    const reader = child.stdout.getReader();
    await reader.read();
    const err = await Store.open(path, { readOnly: true }).catch((e: unknown) => e);
    child.kill('SIGKILL');
    await child.exited;
    expect(err).toBeInstanceOf(FaunError);
    expect((err as Error).message).toContain(`PID ${child.pid}`);
  }, 30_000);
});

describe('export', () => {
  for (const format of ['parquet', 'jsonl'] as const) {
    test(`${format} export round-trips and leaves no temp file`, async () => {
      const s = await load(fresh(), pages());
      const out = join(tmp.dir, `entries.${format}`);
      await s.exportTable('entries', out, format);
      const stored = await s.all<Record<string, unknown>>(
        'SELECT * EXCLUDE (fp) FROM entries ORDER BY repo, number',
      );
      const back =
        format === 'parquet'
          ? await s.all<Record<string, unknown>>(`SELECT * EXCLUDE (fp) FROM read_parquet('${out}')`)
          : (await Bun.file(out).text())
              .trim()
              .split('\n')
              .map((l) => {
                const { fp: _fp, ...rest } = JSON.parse(l) as Record<string, unknown>;
                return rest;
              });
      expect(back.length).toBe(600);
      expect(back).toEqual(stored);
      expect((await readdir(tmp.dir)).filter((f) => f.includes('.tmp-'))).toEqual([]);
      await expect(s.exportTable('nope', out, format)).rejects.toThrow("no table or view 'nope'");
      await s.close();
    });
  }
});
