/** Unified-diff inspection (pure): the paths a patch touches, and whether any escapes the repository. */

export interface PatchFile {
  /** Path before (null when the patch creates the file). */
  from: string | null;
  /** Path after (null when the patch deletes the file). */
  to: string | null;
}

const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** git's C-style quoted path (`"a/t\\303\\251st"`, octal bytes in UTF-8) → the path; a bad escape is kept as is. */
function cUnquote(s: string): string {
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = String.fromCodePoint(body.codePointAt(i)!);
    if (ch !== '\\' || i + 1 >= body.length) {
      bytes.push(...new TextEncoder().encode(ch));
      i += ch.length - 1;
      continue;
    }
    const oct = /^[0-3][0-7]{2}/.exec(body.slice(i + 1));
    if (oct) {
      bytes.push(Number.parseInt(oct[0], 8));
      i += 3;
    } else if (C_ESCAPES[body[i + 1]!] !== undefined) {
      bytes.push(C_ESCAPES[body[i + 1]!]!);
      i += 1;
    } else bytes.push(92);
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function unquote(p: string): string {
  const s = p.trim();
  if (s.length > 1 && s.startsWith('"') && s.endsWith('"')) return cUnquote(s);
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

/** One file's part of a diff: its header and hunks, kept byte for byte, and the paths it names. */
export interface PatchChunk extends PatchFile {
  text: string;
}

/**
 * Splits a git or plain unified diff into one chunk per file (text kept byte for byte; concatenated they
 * give the diff back). Hunk bodies are counted by their `@@` ranges, so a removed line reading `-- x` or an
 * added `diff --git` line inside a hunk never starts a chunk. Text before the first header is kept with
 * the first chunk.
 */
export function patchChunks(diff: string): PatchChunk[] {
  const lines = diff.split(/(?<=\n)/);
  const starts: number[] = [];
  let oldLeft = 0;
  let newLeft = 0;
  let inGit = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (oldLeft > 0 || newLeft > 0) {
      if (line.startsWith('\\')) continue;
      if (line.startsWith('-')) oldLeft--;
      else if (line.startsWith('+')) newLeft--;
      else {
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    const h = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (h) {
      oldLeft = h[1] === undefined ? 1 : Number(h[1]);
      newLeft = h[2] === undefined ? 1 : Number(h[2]);
      inGit = false;
      continue;
    }
    if (line.startsWith('diff --git ')) {
      starts.push(i);
      inGit = true;
    } else if (line.startsWith('--- ') && !inGit && lines[i + 1]?.startsWith('+++ ')) starts.push(i);
  }
  if (!starts.length) return [];
  starts[0] = 0;
  return starts.map((s, k) => {
    const text = lines.slice(s, starts[k + 1] ?? lines.length).join('');
    return { ...chunkFile(text), text };
  });
}

/** The paths of one chunk (its first file; a binary or mode-only chunk with spaces: from the header). */
function chunkFile(text: string): PatchFile {
  const f = patchFiles(text)[0] ?? { from: null, to: null };
  if (f.from !== null || f.to !== null) return f;
  const h = /^diff --git a\/(.+) b\/(.+)$/m.exec(text);
  if (h && h[1] === h[2]) return { from: h[1]!, to: h[2]! };
  return f;
}
