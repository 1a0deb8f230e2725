/** Test helpers for the command tests: run `bun apps/cli/src/main.ts …` in a temp dir, build records. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from '@faun/kit';

const MAIN = join(REPO_ROOT, 'apps/cli/src/main.ts');

/** A temp dir with a `faun(args)` runner whose run records go to `<dir>/logs`; `env` is added to the children's. */
export function cliSandbox(prefix: string, env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const faun = (args: string[]): { code: number; stdout: string; stderr: string } => {
    const p = Bun.spawnSync(['bun', MAIN, ...args, '--log-dir', join(dir, 'logs')], {
      cwd: dir,
      env: { ...process.env, CI: '1', ...env },
    });
    return { code: p.exitCode ?? -1, stdout: p.stdout.toString(), stderr: p.stderr.toString() };
  };
  const write = (name: string, rows: unknown[]): string => {
    const p = join(dir, name);
    writeFileSync(p, rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n') + '\n');
    return p;
  };
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  return { dir, faun, write, cleanup };
}

/** The rows of a JSONL file. */
export const readJsonlFile = (p: string): Record<string, unknown>[] =>
  readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const base = { v: 1, repo: 'o/r', language: 'python', issue_number: 1, issue_title: 't', issue_body: 'b' };

/** A QA dataset item. */
export const qaItem = (id: string, answer: string) => ({
  ...base,
  id,
  task: 'qa',
  question_association: null,
  answer,
  answer_association: null,
});

/** An FL dataset item over the tree a.py, pkg/b.py, pkg/c.py. */
export const flItem = (id: string, gold = 'pkg/b.py') => ({
  ...base,
  id,
  task: 'fl',
  base_commit: null,
  tree: ['a.py', 'pkg/b.py', 'pkg/c.py'],
  gold_path: gold,
});

/** A prediction row. */
export const predRow = (
  id: string,
  task: string,
  model: string,
  output: string,
  error: string | null = null,
) => ({
  v: 1,
  id,
  task,
  model,
  output,
  error,
});
