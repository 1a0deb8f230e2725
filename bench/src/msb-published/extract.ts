/**
 * Rebuilds the published rows the bench runs from a mirror of Multi-SWE-bench's repository, by the
 * committed pointers (bench/data/msb-published-pointers.jsonl: `{dataset, commit, path, instance_id,
 * repo, pr, base_sha}` per line). A pointer whose row is missing or whose base differs is an error.
 *
 *   bun bench/src/msb-published/extract.ts --mirror /work/.mirror/multi-swe-bench+multi-swe-bench/repo \
 *     --repo fasterxml/jackson-core --out /tmp/jackson-core.jsonl
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { FaunError, InputError } from '@faun/kit';

export interface Pointer {
  dataset: string;
  commit: string;
  path: string;
  instance_id: string;
  repo: string;
  pr: number;
  base_sha: string;
}

export const POINTERS = resolve(import.meta.dir, '../../data/msb-published-pointers.jsonl');

export function readPointers(text: string, file: string): Pointer[] {
  return text
    .split('\n')
    .map((l, i) => [l, i + 1] as const)
    .filter(([l]) => l.trim())
    .map(([l, n]) => {
      const p = JSON.parse(l) as Pointer;
      for (const k of ['dataset', 'commit', 'path', 'instance_id', 'repo', 'base_sha'] as const)
        if (typeof p[k] !== 'string' || !p[k]) throw new InputError(`${file}:${n}: ${k}: expected a string`);
      if (!/^[0-9a-f]{40}$/.test(p.commit))
        throw new InputError(`${file}:${n}: commit: expected a 40-hex sha`);
      return p;
    });
}

/** The lines of a dataset file that the pointers name, in the pointers' order (checked against them). */
export function selectRows(text: string, pointers: readonly Pointer[], where: string): string[] {
  const byId = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { instance_id?: string; base?: { sha?: string } };
    if (r.instance_id) byId.set(r.instance_id, line);
  }
  return pointers.map((p) => {
    const line = byId.get(p.instance_id);
    if (!line) throw new InputError(`${where}: no row ${p.instance_id}`);
    const sha = (JSON.parse(line) as { base?: { sha?: string } }).base?.sha;
    if (sha !== p.base_sha)
      throw new InputError(`${where}: ${p.instance_id}: base.sha ${sha} is not the pointer's ${p.base_sha}`);
    return line;
  });
}

async function main(argv: string[]): Promise<void> {
  const arg = (k: string) => {
    const i = argv.indexOf(`--${k}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const mirror = arg('mirror');
  const out = arg('out');
  const repo = arg('repo');
  if (!mirror || !out)
    throw new InputError('usage: extract.ts --mirror GITDIR --out ROWS.jsonl [--repo owner/name]');
  const pointers = readPointers(readFileSync(POINTERS, 'utf8'), POINTERS).filter(
    (p) => !repo || p.repo === repo,
  );
  if (!pointers.length) throw new InputError(`no pointer for ${repo}`);
  const lines: string[] = [];
  for (const key of [...new Set(pointers.map((p) => `${p.commit}:${p.path}`))]) {
    const r = Bun.spawnSync(['git', '-C', mirror, 'show', key]);
    if (r.exitCode !== 0) throw new InputError(`git show ${key} in ${mirror}: ${r.stderr.toString().trim()}`);
    lines.push(
      ...selectRows(
        r.stdout.toString(),
        pointers.filter((p) => `${p.commit}:${p.path}` === key),
        key,
      ),
    );
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  console.log(`${out}: ${lines.length} rows`);
}

if (import.meta.main)
  await main(process.argv.slice(2)).catch((e) => {
    if (!(e instanceof FaunError)) throw e;
    console.error(e.message);
    process.exit(e.exitCode);
  });
