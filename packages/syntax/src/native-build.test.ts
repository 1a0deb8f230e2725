/**
 * Native libraries are built guided by a training parse's profile, with flags tuned for this processor,
 * where the compiler takes both; tuned without the profile where it cannot profile; plain -O2 where it takes
 * no tuning flags (each failed build falls back to the next, with the same trees).
 */
import { expect, test } from 'bun:test';
import { chmodSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cc = Bun.which(process.env.FAUN_CC || 'cc');

const SCRIPT = `
import { loadNative, parseFlat, nativeStatus } from './native.ts';
await loadNative(['go'], 'wait');
const t = parseFlat('package main\\nfunc f() { x := 1 }\\n', 'go');
console.log(JSON.stringify({ status: nativeStatus(), root: t?.tree.rootString ?? null }));
`;

/** A compiler wrapper that refuses `flag`, as some compilers do. */
function pickyCompiler(dir: string, name: string, flag: string): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `#!/bin/sh\nfor a in "$@"; do [ "$a" = ${flag} ] && { echo "unsupported: $a" >&2; exit 1; }; done\nexec ${cc} "$@"\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

async function parseWith(env: Record<string, string>) {
  const p = Bun.spawn(['bun', '-e', SCRIPT], {
    cwd: import.meta.dir,
    env: { ...process.env, ...env },
    stdout: 'pipe',
    stderr: 'pipe',
  });
  const [out, err] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  await p.exited;
  expect(err).toBe('');
  return JSON.parse(out) as { status: { native: string[] }; root: string | null };
}

test.skipIf(cc === null)(
  'the profile-guided build, or tuned where the compiler cannot profile, or plain -O2; the tree is the same',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'faun-native-'));
    try {
      // FAUN_SYNTAX_PGO set either way (the test runner sets 0 for the other suites)
      const [plain, tuned, pgo, off] = await Promise.all([
        parseWith({
          FAUN_CC: pickyCompiler(dir, 'no-march', '-march=native'),
          FAUN_SYNTAX_NATIVE_DIR: join(dir, 'plain'),
          FAUN_SYNTAX_PGO: '1',
        }),
        parseWith({
          FAUN_CC: pickyCompiler(dir, 'no-profile', '-fprofile-use'),
          FAUN_SYNTAX_NATIVE_DIR: join(dir, 'tuned'),
          FAUN_SYNTAX_PGO: '1',
        }),
        parseWith({ FAUN_SYNTAX_NATIVE_DIR: join(dir, 'pgo'), FAUN_SYNTAX_PGO: '1' }),
        parseWith({ FAUN_SYNTAX_NATIVE_DIR: join(dir, 'off'), FAUN_SYNTAX_PGO: '0' }),
      ]);
      for (const r of [plain, tuned, pgo, off]) expect(r.status.native).toEqual(['go']);
      expect(plain.root).toContain('(source_file (package_clause');
      expect(tuned.root).toBe(plain.root);
      expect(pgo.root).toBe(plain.root);
      expect(off.root).toBe(plain.root);
      // each build is cached under its own key, and the profile-guided build leaves no work folder
      const files = (sub: string) => readdirSync(join(dir, sub)).filter((f) => !f.endsWith('.lock'));
      const libs = (sub: string) => files(sub).filter((f) => f.endsWith('.so'));
      expect(libs('plain')).toHaveLength(1);
      expect(libs('tuned')).toHaveLength(1);
      expect(files('pgo')).toEqual(libs('pgo'));
      expect(libs('pgo')).toHaveLength(1);
      expect(libs('off')).toHaveLength(1);
      const all = new Set([...libs('plain'), ...libs('tuned'), ...libs('pgo'), ...libs('off')]);
      expect(all.size).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  600_000,
);
