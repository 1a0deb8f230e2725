/** Unified-diff inspection (pure): the paths a patch touches, and whether any escapes the repository. */

export interface PatchFile {
  /** Path before (null when the patch creates the file). */
  from: string | null;
  /** Path after (null when the patch deletes the file). */
  to: string | null;
}

function unquote(p: string): string {
  const s = p.trim();
  if (s.startsWith('"') && s.endsWith('"')) return JSON.parse(s) as string;
  return s.split('\t')[0]!;
}

function strip(p: string): string | null {
  const s = unquote(p);
  if (s === '/dev/null') return null;
  return s.replace(/^[ab]\//, '');
}

const GIT_EXT =
  /^(diff --git |index |old mode |new mode |deleted file mode |new file mode |similarity index |dissimilarity index |rename (from|to) |copy (from|to) )/;

/** Files a unified or git diff touches, in order of appearance. */
export function patchFiles(diff: string): PatchFile[] {
  const out: PatchFile[] = [];
  let cur: PatchFile | null = null;
  let gitHeader = false;
  let prev = '';
  for (const line of diff.split('\n')) {
    // `---` belongs to the git header only directly after it (extended header lines included).
    if (gitHeader && line.startsWith('--- ') && !GIT_EXT.test(prev)) gitHeader = false;
    prev = line;
    if (line.startsWith('diff --git ')) {
      const m = /^diff --git ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(line);
      cur = { from: m ? strip(m[1]!) : null, to: m ? strip(m[2]!) : null };
      out.push(cur);
      gitHeader = true;
    } else if (line.startsWith('--- ')) {
      const from = strip(line.slice(4));
      if (!gitHeader || !cur) {
        cur = { from, to: null };
        out.push(cur);
      } else cur.from = from;
    } else if (line.startsWith('+++ ') && cur) {
      cur.to = strip(line.slice(4));
      gitHeader = false;
    } else if (cur && line.startsWith('new file mode')) cur.from = null;
    else if (cur && line.startsWith('deleted file mode')) cur.to = null;
    else if (cur && line.startsWith('rename from ')) cur.from = line.slice(12).trim();
    else if (cur && line.startsWith('rename to ')) cur.to = line.slice(10).trim();
    else if (cur && line.startsWith('copy from ')) cur.from = line.slice(10).trim();
    else if (cur && line.startsWith('copy to ')) cur.to = line.slice(8).trim();
  }
  return out;
}

/** Symbolic links a git diff creates (or turns a file into): path → target. */
export function patchSymlinks(diff: string): Map<string, string> {
  const links = new Map<string, string>();
  let path: string | null = null;
  let link = false;
  let inHunk = false;
  for (const line of diff.split('\n')) {
    if (line.startsWith('diff --git ')) {
      const m = /^diff --git ("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/.exec(line);
      path = m ? strip(m[2]!) : null;
      link = false;
      inHunk = false;
    } else if (/^(new file mode|new mode) 120000/.test(line)) link = true;
    else if (line.startsWith('@@ ')) inHunk = true;
    else if (inHunk && link && path && line.startsWith('+') && !links.has(path))
      links.set(path, line.slice(1));
  }
  return links;
}

/** True when `target`, a link at `at`, resolves outside the tree (absolute, or `..` past the root). */
function escapes(at: string, target: string): boolean {
  if (target.startsWith('/') || /^[A-Za-z]:/.test(target)) return true;
  const parts = at.split('/').slice(0, -1);
  for (const seg of target.split(/[\\/]+/)) {
    if (seg === '..') {
      if (parts.length === 0) return true;
      parts.pop();
    } else if (seg && seg !== '.') parts.push(seg);
  }
  return false;
}

/**
 * Paths in a patch that point outside the repository: absolute, `..` segments or into `.git` (also as a
 * rename or copy target), links created to outside the tree, and files written through a link the
 * patch itself creates.
 */
export function unsafePaths(diff: string): string[] {
  const bad = new Set<string>();
  const check = (p: string | null) => {
    if (p === null) return;
    const segs = p.split(/[\\/]+/);
    if (
      p.startsWith('/') ||
      /^[A-Za-z]:/.test(p) ||
      segs.includes('..') ||
      segs[0] === '.git' ||
      p.includes('\0')
    )
      bad.add(p);
  };
  const files = patchFiles(diff);
  for (const f of files) {
    check(f.from);
    check(f.to);
  }
  // a link out of the tree, or a write through a link the same patch creates (symlink-then-write)
  const links = patchSymlinks(diff);
  for (const [at, target] of links) if (escapes(at, target)) bad.add(`${at} -> ${target}`);
  for (const f of files)
    for (const p of [f.from, f.to]) for (const at of links.keys()) if (p?.startsWith(`${at}/`)) bad.add(p);
  // `--- ../x` without an a/ prefix is stripped by -p1 to `x`… but the raw header is what `patch` may use.
  for (const line of diff.split('\n')) {
    if (!line.startsWith('--- ') && !line.startsWith('+++ ')) continue;
    const raw = unquote(line.slice(4));
    if (raw !== '/dev/null' && (raw.startsWith('/') || raw.split('/').includes('..'))) bad.add(raw);
  }
  return [...bad].sort();
}

/** True when the patch has no hunks at all (empty, whitespace, or headers only). */
export function isEmptyPatch(diff: string | null | undefined): boolean {
  if (!diff?.trim()) return true;
  return !/^(@@ |Binary files |GIT binary patch|rename from |new file mode|deleted file mode)/m.test(diff);
}

/** Test-file bookkeeping for the eval script: files to restore to base, files to delete before applying. */
export function testPatchTargets(testPatch: string): { existing: string[]; created: string[] } {
  const existing = new Set<string>();
  const created = new Set<string>();
  for (const f of patchFiles(testPatch)) {
    if (f.from) existing.add(f.from);
    if (f.to && !f.from) created.add(f.to);
    else if (f.to && f.to !== f.from) created.add(f.to);
  }
  return { existing: [...existing].sort(), created: [...created].sort() };
}
