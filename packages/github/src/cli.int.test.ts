/**
 * `faun crawl` as a child process against the fake GitHub: SIGKILL at several random points and
 * re-run until done gives the same store contents as an uninterrupted crawl; bad input fails with a
 * clear message and leaves no store behind.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '@faun/store';
import { FakeGitHub } from '../testing/index.ts';
import { SimClock } from './clock.ts';

const MAIN = join(import.meta.dir, '../../../apps/cli/src/main.ts');
const dir = mkdtempSync(join(tmpdir(), 'faun-crawl-'));
const clock = new SimClock(36_000);
let fake: FakeGitHub;

beforeAll(() => {
  fake = FakeGitHub.start({
    corpus: { seed: 'resume', repos: 3, entries: 4500 },
    clock,
    faults: { secondaryEvery: 97 },
  });
});
afterAll(async () => {
  await fake.stop();
  rmSync(dir, { recursive: true, force: true });
});

function env(): Record<string, string> {
  const e: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(GITHUB_TOKENS?|FAUN_.*)$/.test(k)) e[k] = v;
  return e;
}

function spawnCrawl(
  db: string,
  repos: string,
  extra: string[] = ['--token', 'fake-token-0', '--token', 'fake-token-1'],
) {
  return Bun.spawn(
    [
      'bun',
      MAIN,
      'crawl',
      '--api-url',
      fake.url,
      '--repos',
      repos,
      '--db',
      db,
      '--clock',
      clock.spec(),
      '--quiet',
      '--log-dir',
      join(dir, 'logs'),
      ...extra,
    ],
    {
      env: env(),
      stdout: 'pipe',
      stderr: 'pipe',
    },
  );
}

async function hashOf(db: string): Promise<string> {
  const store = await Store.open(db, { readOnly: true });
  try {
    return await store.contentHash();
  } finally {
    await store.close();
  }
}

const ALL = 'fake-org/repo-0,fake-org/repo-1,fake-org/repo-2';
let referenceHash = '';

describe('faun crawl (child process)', () => {
  test('SIGKILL at random points, re-run until done: same contents as an uninterrupted crawl', async () => {
    const dbA = join(dir, 'a.duckdb');
    const a = spawnCrawl(dbA, ALL);
    expect(await a.exited).toBe(0);
    const reference = await hashOf(dbA);
    referenceHash = reference;

    const dbB = join(dir, 'b.duckdb');
    // Deterministic "random" kill points (ms after start).
    const points = [900, 1400, 700, 1800, 1100];
    let killed = 0;
    for (const ms of points) {
      const p = spawnCrawl(dbB, ALL);
      const timer = setTimeout(() => p.kill('SIGKILL'), ms);
      const code = await p.exited;
      clearTimeout(timer);
      if (p.signalCode === 'SIGKILL') killed++;
      else expect(code).toBe(0);
    }
    expect(killed).toBeGreaterThanOrEqual(3);
    let done = false;
    for (let i = 0; i < 5 && !done; i++) done = (await spawnCrawl(dbB, ALL).exited) === 0;
    expect(done).toBe(true);
    expect(await hashOf(dbB)).toBe(reference);
  }, 120_000);

  test('SIGTERM (like Ctrl+C): stops cleanly with exit 130 and the resume command; resuming completes', async () => {
    const db = join(dir, 'term.duckdb');
    const before = fake.log.length;
    const p = spawnCrawl(db, ALL);
    // signal once the crawl is under way (it has made 20 requests: the handler is in place, work remains),
    // not after a fixed delay, which a loaded machine can spend on start-up alone
    while (fake.log.length < before + 20 && p.exitCode === null) await Bun.sleep(5);
    p.kill('SIGTERM');
    const err = await new Response(p.stderr).text();
    const code = await p.exited;
    expect(code).toBe(130);
    expect(err).toContain('resume with: bun run faun crawl');
    // the run record says the run was cancelled and how to resume it
    const runs = readdirSync(join(dir, 'logs')).filter((r) => r.includes('-crawl-'));
    const summaries = runs
      .map((r) => join(dir, 'logs', r, 'summary.json'))
      .filter((f) => existsSync(f))
      .map((f) => JSON.parse(readFileSync(f, 'utf8')) as { status: string; resume_command: string | null });
    expect(
      summaries.some((x) => x.status === 'cancelled' && x.resume_command?.startsWith('bun run faun crawl')),
    ).toBe(true);
    expect(await spawnCrawl(db, ALL).exited).toBe(0);
    expect(referenceHash).not.toBe('');
    expect(await hashOf(db)).toBe(referenceHash);
  }, 120_000);

  test('unknown repository: exit 1, a 404 message, no store written', async () => {
    const db = join(dir, 'unknown.duckdb');
    const p = spawnCrawl(db, 'fake-org/repo-0,fake-org/nope');
    expect(await p.exited).toBe(1);
    expect(await new Response(p.stderr).text()).toContain('repository fake-org/nope not found (404)');
    expect(existsSync(db)).toBe(false);
  }, 30_000);

  test('bad token: exit 1, a 401 message without the token, no store written', async () => {
    const db = join(dir, 'badtoken.duckdb');
    const p = spawnCrawl(db, 'fake-org/repo-0', ['--token', 'sekret-bad-value']);
    expect(await p.exited).toBe(1);
    const err = await new Response(p.stderr).text();
    expect(err).toContain('GitHub rejected token #1 (401 Bad credentials)');
    expect(err).not.toContain('sekret-bad-value');
    expect(existsSync(db)).toBe(false);
  }, 30_000);

  test('malformed repos file: the file and line are named, no store written', async () => {
    const db = join(dir, 'badfile.duckdb');
    const file = join(dir, 'repos.txt');
    writeFileSync(file, '# repos\nfake-org/repo-0\nnot a repo name\n');
    const p = spawnCrawl(db, file);
    expect(await p.exited).toBe(1);
    expect(await new Response(p.stderr).text()).toContain(
      `${file}:3: "not a repo name" is not an owner/repo name`,
    );
    expect(existsSync(db)).toBe(false);
  }, 30_000);
});
