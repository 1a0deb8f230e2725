/**
 * API throughput: `POST /v1/score/fl` with a small FL batch (5 items), driven by wrk on loopback against
 * a `faun serve` child process (embedded PGlite, in-process queue, request logs on). Reports requests/s
 * and latency percentiles; targets ≥ 2,000 req/s and p99 ≤ 50 ms. Two variants: the request as `faun score`
 * runs it (1,000 bootstrap resamples for the intervals, the default) and with `bootstrap: 0` (scores only).
 * Options: --seconds N per variant (default 10), --connections N (default 8), --threads N (default 1).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PrerequisiteError, REPO_ROOT } from '@faun/kit';
import { parseFlags } from '../args.ts';

const CLI = join(REPO_ROOT, 'apps/cli/src/main.ts');
const TARGET_RPS = 2000;
const TARGET_P99_MS = 50;

export const FLAGS = { seconds: 10, connections: 8, threads: 1 };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Five FL items with small trees and predictions (three right, two wrong). */
export function smallFlBatch() {
  const items = Array.from({ length: 5 }, (_, i) => ({
    v: 1,
    id: `acme/widgets#${i + 1}`,
    repo: 'acme/widgets',
    language: 'python',
    issue_number: i + 1,
    issue_title: `Crash when saving widget ${i}`,
    issue_body: 'Saving a widget with an empty name raises KeyError in the serializer.',
    task: 'fl',
    base_commit: null,
    tree: ['src/widgets/models.py', 'src/widgets/serializers.py', 'src/widgets/views.py', 'README.md'],
    gold_path: 'src/widgets/serializers.py',
  }));
  const predictions = items.map((it, i) => ({
    v: 1,
    id: it.id,
    task: 'fl',
    model: 'bench:model',
    output: i < 3 ? 'src/widgets/serializers.py' : 'src/widgets/views.py',
  }));
  return { items, predictions };
}

const LUA_DONE = `
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK_JSON {"requests":%d,"duration_us":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"max_us":%d,"socket_errors":%d,"non2xx":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(90), latency:percentile(99),
    latency.max, e.connect + e.read + e.write + e.timeout, e.status))
end`;

function runWrk(o: {
  dir: string;
  url: string;
  token: string;
  body: string;
  threads: number;
  connections: number;
  seconds: number;
  name: string;
}): Record<string, unknown> {
  const lua = join(o.dir, `${o.name}.lua`);
  writeFileSync(
    lua,
    `wrk.method = "POST"\nwrk.body = ${JSON.stringify(o.body)}\nwrk.headers["Content-Type"] = "application/json"\nwrk.headers["Authorization"] = "Bearer ${o.token}"\n${LUA_DONE}\n`,
  );
  console.log(
    `[${o.name}] wrk -t${o.threads} -c${o.connections} -d${o.seconds}s POST /v1/score/fl (${o.body.length} bytes)`,
  );
  const w = Bun.spawnSync(
    [
      'wrk',
      `-t${o.threads}`,
      `-c${o.connections}`,
      `-d${o.seconds}s`,
      '--timeout',
      '2s',
      '-s',
      lua,
      `${o.url}/v1/score/fl`,
    ],
    { stderr: 'pipe' },
  );
  const out = w.stdout.toString();
  const line = out.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (!line) throw new Error(`could not read wrk's output:\n${out}\n${w.stderr.toString()}`);
  const r = JSON.parse(line.slice('WRK_JSON '.length)) as Record<string, number>;
  const rps = r.requests! / (r.duration_us! / 1e6);
  const figures = {
    body_bytes: o.body.length,
    connections: o.connections,
    threads: o.threads,
    seconds: o.seconds,
    requests: r.requests,
    req_per_s: Math.round(rps),
    p50_ms: r.p50_us! / 1000,
    p90_ms: r.p90_us! / 1000,
    p99_ms: r.p99_us! / 1000,
    max_ms: r.max_us! / 1000,
    non_2xx: r.non2xx,
    socket_errors: r.socket_errors,
    meets_targets: rps >= TARGET_RPS && r.p99_us! / 1000 <= TARGET_P99_MS && r.non2xx === 0,
  };
  console.log(
    `[${o.name}] ${figures.req_per_s} req/s, p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms, non-2xx ${figures.non_2xx} ` +
      `(targets ≥ ${TARGET_RPS} req/s, p99 ≤ ${TARGET_P99_MS} ms: ${figures.meets_targets ? 'met' : 'NOT met'})`,
  );
  return figures;
}

export default async function api(args: string[]): Promise<Record<string, unknown>> {
  if (!Bun.which('wrk'))
    throw new PrerequisiteError('wrk is not installed', { hint: 'apt-get install -y wrk' });
  const { seconds, connections, threads } = parseFlags('api', args, FLAGS);
  const dir = mkdtempSync(join(tmpdir(), 'faun-bench-api-'));
  mkdirSync(join(dir, 'datasets'));
  const db = join(dir, 'db');
  let server: ReturnType<typeof Bun.spawn> | null = null;
  try {
    const made = Bun.spawnSync(
      [
        'bun',
        CLI,
        'serve',
        'keys',
        'create',
        '--db',
        db,
        '--name',
        'bench',
        '--rate',
        '1000000',
        '--burst',
        '1000000',
        '--items-per-day',
        '2000000000',
        '--json',
      ],
      { stderr: 'pipe' },
    );
    if (made.exitCode !== 0) throw new Error(`keys create failed: ${made.stderr.toString()}`);
    const { token } = JSON.parse(made.stdout.toString()) as { token: string };
    const port = await freePort();
    server = Bun.spawn(
      ['bun', CLI, 'serve', '--db', db, '--port', String(port), '--datasets', join(dir, 'datasets')],
      {
        stdout: 'ignore',
        stderr: Bun.file(join(dir, 'server.log')),
      },
    );
    const url = `http://127.0.0.1:${port}`;
    const until = Date.now() + 30_000;
    for (;;) {
      const ok = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > until) throw new Error('faun serve did not come up within 30 s');
      await Bun.sleep(100);
    }
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const variants: Record<string, unknown> = {};
    for (const [name, extra] of [
      ['default_bootstrap_1000', {}],
      ['bootstrap_0', { bootstrap: 0 }],
    ] as const) {
      const body = JSON.stringify({ ...smallFlBatch(), ...extra });
      for (let i = 0; i < 300; i++) {
        const r = await fetch(`${url}/v1/score/fl`, { method: 'POST', headers, body });
        if (r.status !== 200) throw new Error(`warm-up request failed: ${r.status} ${await r.text()}`);
        await r.arrayBuffer();
      }
      variants[name] = runWrk({ dir, url, token, body, threads, connections, seconds, name });
    }
    return {
      endpoint: 'POST /v1/score/fl',
      batch_items: 5,
      targets: { req_per_s: TARGET_RPS, p99_ms: TARGET_P99_MS },
      ...variants,
    };
  } finally {
    server?.kill('SIGTERM');
    await server?.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
