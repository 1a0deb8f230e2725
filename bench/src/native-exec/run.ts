/**
 * `bun bench/src/native-exec/run.ts [--lang L] [--repo owner/name] [--mirrors DIR] [--out DIR] [--skip-validate] [--limit N]`
 *
 * Proves the native environments (Go, Rust, C, C++) on real pull requests: each pointer of
 * bench/data/real-exec-pointers-native.jsonl becomes a Multi-SWE-bench-shaped row (`git diff fix^ fix`
 * from the repository's mirror, split by rows.ts), `faun validate` derives its FAIL_TO_PASS /
 * PASS_TO_PASS by running it without and with the fix, and the valid rows run through `faun verify`
 * with the gold patch twice and the empty patch once. Needs the mirrors (search tool `fetch`), so it is a
 * benchmark, not a CI test. Writes `<out>/summary.json`; resumable (verify resumes by run id).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { cfgTestLine, msbRow, type NativePointer, parsePointer, splitDiff } from './rows.ts';

const ROOT = join(import.meta.dir, '..', '..', '..');
const { values: opt } = parseArgs({
  options: {
    lang: { type: 'string' },
    repo: { type: 'string' },
    mirrors: { type: 'string', default: '/work/.mirror' },
    out: { type: 'string', default: join(ROOT, 'bench', 'out', 'native-exec') },
    pointers: { type: 'string', default: join(ROOT, 'bench', 'data', 'real-exec-pointers-native.jsonl') },
    'skip-validate': { type: 'boolean', default: false },
    cpus: { type: 'string', default: '2' },
    memory: { type: 'string', default: '4096' },
    timeout: { type: 'string', default: '2400' },
    limit: { type: 'string' },
  },
});

const mirror = (repo: string) => join(opt.mirrors!, repo.replace('/', '+'), 'repo');

function git(dir: string, args: string[]): string {
  const p = Bun.spawnSync(['git', `--git-dir=${dir}`, ...args], { stdout: 'pipe', stderr: 'pipe' });
  if (p.exitCode !== 0) throw new Error(`git ${args.join(' ')} in ${dir}: ${p.stderr.toString().trim()}`);
  return p.stdout.toString();
}

function faun(args: string[]): number {
  console.log(`$ bun run faun ${args.join(' ')}`);
  const p = Bun.spawnSync(['bun', 'run', 'faun', ...args], {
    cwd: ROOT,
    stdout: 'inherit',
    stderr: 'inherit',
  });
  return p.exitCode ?? 1;
}

const pointers: NativePointer[] = readFileSync(opt.pointers!, 'utf8')
  .split('\n')
  .map((l, i) => [l, i + 1] as const)
  .filter(([l]) => l.trim())
  .map(([l, n]) => parsePointer(JSON.parse(l), `${opt.pointers}:${n}`))
  .filter((p) => (!opt.lang || p.language === opt.lang) && (!opt.repo || p.repo === opt.repo))
  .slice(0, opt.limit ? Number(opt.limit) : undefined);

const tag = [opt.lang ?? 'all', opt.repo?.replace('/', '+')].filter(Boolean).join('-');
const out = join(opt.out!, tag);
mkdirSync(out, { recursive: true });
const rowsFile = join(out, 'rows.jsonl');
const validFile = join(out, 'valid.jsonl');
const gradedFile = join(out, 'instances.jsonl');

const rows = pointers.map((p) => {
  const dir = mirror(p.repo);
  if (!existsSync(dir)) throw new Error(`no mirror of ${p.repo} at ${dir} (fetch it with the search tool)`);
  const base = git(dir, ['rev-parse', `${p.fix_commit}^`]).trim();
  const diff = git(dir, ['diff', '--no-renames', '--full-index', '--binary', base, p.fix_commit]);
  const split = splitDiff(diff, (path) => cfgTestLine(git(dir, ['show', `${p.fix_commit}:${path}`])));
  return msbRow(p, base, split);
});
writeFileSync(rowsFile, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
console.log(`${rows.length} rows → ${rowsFile}`);

const repoDirs = [...new Set(pointers.map((p) => p.repo))].flatMap((r) => [
  '--repo-dir',
  `${r}=${mirror(r)}`,
]);
const limits = ['--cpus', opt.cpus!, '--memory', opt.memory!, '--timeout', opt.timeout!];
const logDir = ['--log-dir', join(out, 'logs')];
if (!opt['skip-validate'])
  faun(['validate', '--instances', rowsFile, '--out', validFile, ...repoDirs, ...limits, ...logDir]);

// Back to Multi-SWE-bench's shape, with the derived test lists: graded by its rule and its parser.
const valid = readFileSync(validFile, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, unknown> & { instance_id: string });
const graded = valid.map((v) => {
  const row = rows.find((r) => `${r.org}/${r.repo}:pr-${r.number}` === v.instance_id)!;
  return { ...row, f2p_tests: v.fail_to_pass, p2p_tests: v.pass_to_pass };
});
writeFileSync(gradedFile, graded.map((r) => JSON.stringify(r)).join('\n') + (graded.length ? '\n' : ''));

const summary: Record<string, unknown> = { rows: rows.length, valid: graded.length, runs: {} };
for (const [run, preds] of [
  ['gold-1', 'gold'],
  ['gold-2', 'gold'],
  ['empty', 'empty'],
] as const) {
  if (!graded.length) break;
  const id = `native-${tag}-${run}`;
  const args = ['verify', '--instances', gradedFile, '--predictions', preds, '--run-id', id];
  faun([...args, ...repoDirs, ...limits, ...logDir]);
  const report = join(out, 'logs', id, 'report.json');
  if (existsSync(report)) {
    const r = JSON.parse(readFileSync(report, 'utf8'));
    (summary.runs as Record<string, unknown>)[run] = {
      resolved_ids: r.resolved_ids,
      unresolved_ids: r.unresolved_ids,
      error_ids: r.error_ids,
    };
  }
}
writeFileSync(join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`);
console.log(JSON.stringify(summary, null, 2));
