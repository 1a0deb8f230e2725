/**
 * Test fixtures for the API suites: small generated datasets, a server on 127.0.0.1:0 over PGlite or a
 * real PostgreSQL server, API keys with chosen quotas, and a JSON fetch helper.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScoreTaskFn } from '@faun/jobs';
import { type ServeOptions, type ServerHandle, startServer } from './server.ts';
import { createKey, type KeyOptions } from './service/keys.ts';

export const REPOS = ['acme/widgets', 'acme/gadgets', 'zeta/tools'];

/** FL items: item i belongs to REPOS[i % 3]; its gold path is `src/mod{i}.py`. */
export function flItems(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    v: 1,
    id: `${REPOS[i % 3]}#${i + 1}`,
    repo: REPOS[i % 3],
    language: 'python',
    issue_number: i + 1,
    issue_title: `Crash in module ${i}`,
    issue_body: 'x'.repeat(100 + i * 60),
    task: 'fl',
    base_commit: null,
    tree: [`src/mod${i}.py`, 'src/util.py', 'README.md'],
    gold_path: `src/mod${i}.py`,
  }));
}

export function qaItems(n: number) {
  return Array.from({ length: n }, (_, i) => ({
    v: 1,
    id: `${REPOS[i % 3]}#${100 + i}`,
    repo: REPOS[i % 3],
    language: 'python',
    issue_number: 100 + i,
    issue_title: `How do I configure option ${i}?`,
    issue_body: 'Question body',
    task: 'qa',
    question_association: 'NONE',
    context: [],
    answer: `Set option ${i} in the config file and restart the service.`,
    answer_association: 'MEMBER',
  }));
}

/** FL predictions: items whose index is in `right` name the gold file, the others a wrong one. */
export function flPredictions(
  items: ReturnType<typeof flItems>,
  right: (i: number) => boolean,
  model = 'test:model',
) {
  return items.map((it, i) => ({
    v: 1,
    id: it.id,
    task: 'fl',
    model,
    output: right(i) ? it.gold_path : 'src/util.py',
  }));
}

export interface TestServer extends ServerHandle {
  dir: string;
  key: string;
  keyId: string;
  admin: string;
  newKey(o: Partial<KeyOptions>): Promise<string>;
  req(path: string, init?: RequestInit & { token?: string | null; json?: unknown }): Promise<Response>;
  close(): Promise<void>;
}

export const FL_DATASET_SIZE = 30;

/** Starts a server with datasets `fl-small` (30 FL items) and `qa-small` (12 QA items). */
export async function startTestServer(
  o: { db?: string; serve?: Partial<ServeOptions> } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'faun-api-test-'));
  const ds = join(dir, 'datasets');
  mkdirSync(ds);
  writeFileSync(
    join(ds, 'fl-small.jsonl'),
    `${flItems(FL_DATASET_SIZE)
      .map((x) => JSON.stringify(x))
      .join('\n')}\n`,
  );
  writeFileSync(
    join(ds, 'qa-small.jsonl'),
    `${qaItems(12)
      .map((x) => JSON.stringify(x))
      .join('\n')}\n`,
  );
  writeFileSync(join(ds, 'notes.jsonl'), '{"hello": "not a dataset"}\n');
  const h = await startServer({
    port: 0,
    db: o.db ?? join(dir, 'db'),
    datasetsDir: ds,
    redisUrl: null,
    log: () => {},
    ...o.serve,
    config: { keyCacheMs: 0, scoreBodyLimit: 256 * 1024, ...o.serve?.config },
  });
  const db = h.services.db.db;
  const make = async (k: Partial<KeyOptions>) =>
    (await createKey(db, { name: 'test', ratePerSec: 1000, burst: 1000, ...k })).token;
  const main = await createKey(db, { name: 'main', ratePerSec: 1000, burst: 1000 });
  const admin = await make({ name: 'admin', admin: true });
  return {
    ...h,
    dir,
    key: main.token,
    keyId: main.id,
    admin,
    newKey: make,
    async req(path, init = {}) {
      const headers = new Headers(init.headers);
      const token = init.token === undefined ? main.token : init.token;
      if (token) headers.set('authorization', `Bearer ${token}`);
      let body = init.body;
      if (init.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(init.json);
      }
      return fetch(`${h.url}${path}`, { ...init, headers, body: body ?? null });
    },
    async close() {
      await h.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A server whose runs stay running until `release()`, and one run on it (`config`: over idleTimeoutS 60). */
export async function blockedRun(config: Record<string, number>) {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const blocked: ScoreTaskFn = async (...a) => {
    await gate;
    const { scoreTask } = await import('@faun/metrics');
    return (scoreTask as unknown as ScoreTaskFn)(...a);
  };
  const s = await startTestServer({ serve: { scoreTask: blocked, config: { idleTimeoutS: 60, ...config } } });
  const r = await s.req('/v1/runs', {
    method: 'POST',
    json: { dataset: 'fl-small', predictions: flPredictions(flItems(4), () => true) },
  });
  const { id } = (await r.json()) as { id: string };
  return { s, id, release };
}

/** Polls a run until it is done or errored. */
export async function waitForRun(
  s: TestServer,
  id: string,
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = (await (await s.req(`/v1/runs/${id}`)).json()) as Record<string, unknown>;
    if (r.status === 'done' || r.status === 'error') return r;
    if (Date.now() > until) throw new Error(`run ${id} did not finish: ${JSON.stringify(r)}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

/**
 * A one-file Python repository for execution runs: `add` is wrong at the base commit; the test patch
 * adds `test_add` (FAIL_TO_PASS) beside `test_neg` (PASS_TO_PASS); `gold` fixes `add`.
 */
export function pythonRepoFixture(root: string): {
  dir: string;
  repo: string;
  instance: Record<string, unknown>;
  gold: string;
} {
  const write = writeFileSync;
  const dir = join(root, 'calc-repo');
  mkdirSync(join(dir, 'tests'), { recursive: true });
  const git = (...a: string[]) => {
    const p = Bun.spawnSync(['git', ...a], {
      cwd: dir,
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@x',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@x',
      },
    });
    if (p.exitCode !== 0) throw new Error(`git ${a.join(' ')}: ${p.stderr.toString()}`);
    return p.stdout.toString();
  };
  const calc = (add: string) => `def add(a, b):\n    return ${add}\n\n\ndef neg(a):\n    return -a\n`;
  const tests = (all: boolean) =>
    `from calc import add, neg\n\n\ndef test_neg():\n    assert neg(2) == -2\n${all ? '\n\ndef test_add():\n    assert add(2, 3) == 5\n' : ''}`;
  git('init', '-q', '-b', 'main');
  write(join(dir, 'calc.py'), calc('a - b'));
  write(join(dir, 'tests', 'test_calc.py'), tests(false));
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  const base = git('rev-parse', 'HEAD').trim();
  write(join(dir, 'tests', 'test_calc.py'), tests(true));
  const testPatch = git('diff');
  git('checkout', '-q', '--', '.');
  write(join(dir, 'calc.py'), calc('a + b'));
  const gold = git('diff');
  git('checkout', '-q', '--', '.');
  const repo = 'acme/calc';
  return {
    dir,
    repo,
    gold,
    instance: {
      v: 1,
      instance_id: 'acme__calc-1',
      repo,
      language: 'python',
      base_commit: base,
      patch: gold,
      test_patch: testPatch,
      fail_to_pass: ['tests/test_calc.py::test_add'],
      pass_to_pass: ['tests/test_calc.py::test_neg'],
    },
  };
}
