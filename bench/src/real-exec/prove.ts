/**
 * Proves the real-repository environments until `bun run bench real-exec` lands: rows from
 * bench/data/real-exec-pointers.jsonl (diff of each fix commit in its mirror), `faun validate` (derives
 * FAIL_TO_PASS / PASS_TO_PASS), then `faun verify` gold and empty, twice each, and a verdict table.
 *
 *   bun bench/src/real-exec/prove.ts --mirrors /work/.mirror [--repo owner/name] [--out DIR] [--limit N] [--workers N]
 *
 * Mirror layout: DIR/<owner>+<name>/repo (a bare git directory, as the search tool's fetch writes it).
 * Resumable: each stage's output is kept under --out and a stage whose output exists is not re-run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type ExecPointer, rowOf } from './rows.ts';

const { values } = parseArgs({
  options: {
    mirrors: { type: 'string', default: '/work/.mirror' },
    pointers: { type: 'string', default: 'bench/data/real-exec-pointers.jsonl' },
    repo: { type: 'string', multiple: true },
    out: { type: 'string', default: '/tmp/faun-real-exec' },
    limit: { type: 'string' },
    runs: { type: 'string', default: '2' },
    timeout: { type: 'string', default: '900' },
    stage: { type: 'string', default: 'all' },
    workers: { type: 'string', default: '2' },
  },
});

const root = resolve(import.meta.dir, '../../..');
const out = resolve(values.out!);
mkdirSync(out, { recursive: true });

function git(gitDir: string, args: string[]): string {
  const p = Bun.spawnSync(['git', '--git-dir', gitDir, ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(' ')} (${gitDir}): ${p.stderr.toString().trim()}`);
  return p.stdout.toString();
}

const mirrorOf = (repo: string) => join(values.mirrors!, repo.replace('/', '+'), 'repo');

function faun(args: string[]): number {
  const t0 = performance.now();
  console.log(`$ bun run faun ${args.join(' ')}`);
  const p = Bun.spawnSync(['bun', 'run', 'faun', ...args], {
    cwd: root,
    stdout: 'inherit',
    stderr: 'inherit',
  });
  console.log(`  exit ${p.exitCode} after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return p.exitCode ?? 1;
}

const pointers: ExecPointer[] = readFileSync(join(root, values.pointers!), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as ExecPointer)
  .filter((p) => !values.repo?.length || values.repo.includes(p.repo));

const byRepo = new Map<string, ExecPointer[]>();
for (const p of pointers) byRepo.set(p.repo, [...(byRepo.get(p.repo) ?? []), p]);

const table: string[] = [];
for (const [repo, ps0] of byRepo) {
  const ps = values.limit ? ps0.slice(0, Number(values.limit)) : ps0;
  const slug = repo.replace('/', '__');
  const gd = mirrorOf(repo);
  const rowsFile = join(out, `${slug}.rows.jsonl`);
  const rows = ps.map((p) => {
    const base = git(gd, ['rev-parse', `${p.fix_commit}^`]).trim();
    const diff = git(gd, [
      'diff',
      '--no-color',
      '--no-ext-diff',
      '--full-index',
      `${p.fix_commit}^`,
      p.fix_commit,
    ]);
    return rowOf(p, base, diff);
  });
  writeFileSync(rowsFile, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  const repoDir = `--repo-dir=${repo}=${gd}`;
  const common = [
    repoDir,
    '--build-network',
    'host',
    '--timeout',
    values.timeout!,
    '--workers',
    values.workers!,
  ];
  const valid = join(out, `${slug}.valid.jsonl`);
  if (!existsSync(valid) && values.stage !== 'verify')
    faun(['validate', '--instances', rowsFile, '--out', valid, ...common]);
  if (!existsSync(valid)) continue;
  const validRows = readFileSync(valid, 'utf8').split('\n').filter(Boolean);
  const verdicts = new Map<string, string[]>();
  for (let run = 1; run <= Number(values.runs); run++)
    for (const pred of ['gold', 'empty']) {
      const runId = `real-exec-${slug}-${pred}-${run}`;
      faun([
        'verify',
        '--instances',
        valid,
        '--predictions',
        pred,
        '--run-id',
        runId,
        '--log-dir',
        join(out, 'runs'),
        '--images',
        'build',
        ...common,
      ]);
      const report = join(out, 'runs', runId, 'report.json');
      if (!existsSync(report)) continue;
      const r = JSON.parse(readFileSync(report, 'utf8')) as { resolved_ids?: string[] };
      for (const line of validRows) {
        const id = (JSON.parse(line) as { instance_id: string }).instance_id;
        const v = verdicts.get(id) ?? [];
        v.push(`${pred}${run}=${r.resolved_ids?.includes(id) ? 'resolved' : 'no'}`);
        verdicts.set(id, v);
      }
    }
  table.push(`${repo}: ${validRows.length}/${rows.length} valid`);
  for (const [id, v] of verdicts) table.push(`  ${id}: ${v.join(' ')}`);
}
console.log(table.join('\n'));
writeFileSync(join(out, 'verdicts.txt'), `${table.join('\n')}\n`);
