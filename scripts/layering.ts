/**
 * `bun run layering`: fails on an import circle, a deep import into another package, an arrow against
 * the floors written in DEVELOPERS-NOTES.md (its ```floors block, highest floor first), or a runtime import
 * from a folder of a package up to a higher folder of it (scripts/layering-folders.txt, lowest first).
 * `bun scripts/layering.ts --arrows` prints the package-to-package arrows instead (to draw the floors from).
 * scripts/layering-allow.txt lists known findings still to be fixed; it may only shrink: a listed finding
 * that is gone fails the check too, so the list is kept exact.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkTree, type Finding, type FolderFloors, packageArrows } from './layering/check.ts';

/** The floors from the ```floors block of `markdown`, highest first; one floor a line, `#` starts a comment. */
export function floorsFrom(markdown: string, file: string): string[][] {
  const block = /^```floors\n([\s\S]*?)^```/m.exec(markdown);
  if (!block)
    throw new Error(`${file}: no \`\`\`floors block; add one listing the packages, highest floor first`);
  return block[1]!
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line.length > 0)
    .map((line) => line.split(/\s+/));
}

/**
 * The folder floors of `text` (scripts/layering-folders.txt): one package a line, `dir: lowest … highest`,
 * `#` starts a comment.
 */
export function folderFloorsFrom(text: string, file: string): FolderFloors[] {
  const rules: FolderFloors[] = [];
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/#.*/, '').trim();
    if (!line) return;
    const m = /^([^\s:]+):\s+(\S.*)$/.exec(line);
    if (!m) throw new Error(`${file}:${i + 1}: expected 'package/src: lowest … highest', got '${line}'`);
    const order = m[2]!.split(/\s+/);
    const twice = order.find((f, k) => order.indexOf(f) !== k);
    if (twice) throw new Error(`${file}:${i + 1}: folder '${twice}' is listed twice`);
    rules.push({ dir: m[1]!.replace(/\/$/, ''), order, source: file });
  });
  return rules;
}

/** Folders a rule lists that are not there (a renamed or removed folder leaves its old name behind). */
export function missingFolders(root: string, rules: FolderFloors[]): string[] {
  return rules.flatMap((r) =>
    r.order
      .filter((f) => !existsSync(join(root, r.dir, f)))
      .map((f) => `${r.source}: ${r.dir}/${f === '.' ? '' : f} does not exist; update the ${r.dir} line`),
  );
}

export interface Verdict {
  fresh: Finding[];
  stale: string[];
  allowed: number;
}

/** Compares findings with an allow-list of keys. */
export function judge(findings: Finding[], allow: string[]): Verdict {
  const keys = new Set(findings.map((f) => f.key));
  const allowSet = new Set(allow);
  return {
    fresh: findings.filter((f) => !allowSet.has(f.key)),
    stale: allow.filter((k) => !keys.has(k)),
    allowed: findings.length - findings.filter((f) => !allowSet.has(f.key)).length,
  };
}

export function readAllow(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0 && !l.startsWith('#'));
}

if (import.meta.main) {
  const root = join(import.meta.dir, '..');
  const notes = join(root, 'DEVELOPERS-NOTES.md');
  const allowPath = join(root, 'scripts/layering-allow.txt');
  const foldersPath = 'scripts/layering-folders.txt';
  if (process.argv.includes('--arrows')) {
    console.log(packageArrows(root).join('\n'));
    process.exit(0);
  }
  try {
    const folders = folderFloorsFrom(readFileSync(join(root, foldersPath), 'utf8'), foldersPath);
    const findings = checkTree(root, floorsFrom(readFileSync(notes, 'utf8'), notes), folders);
    const { fresh, stale, allowed } = judge(findings, readAllow(allowPath));
    const missing = missingFolders(root, folders);
    for (const m of missing) console.error(m);
    for (const f of fresh) console.error(`${f.at}  ${f.kind}: ${f.message}`);
    for (const k of stale) {
      console.error(`scripts/layering-allow.txt: '${k}' is fixed; remove the line`);
    }
    console.log(
      `layering: ${fresh.length} findings, ${allowed} allowed, ${stale.length} stale allow-list lines`,
    );
    process.exit(fresh.length + stale.length + missing.length === 0 ? 0 : 1);
  } catch (e) {
    console.error(`layering: ${(e as Error).message}`);
    process.exit(2);
  }
}
