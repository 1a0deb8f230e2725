/**
 * Native libraries are built with flags tuned for this processor where the compiler takes them, and with
 * plain -O2 where it does not (the tuned build fails and the plain one is used, with the same trees).
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

test.skipIf(cc === null)(
  'a compiler that refuses the tuned flags gets the plain build; the tree is the same',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'faun-native-'));
    try {
      // a compiler that refuses -march=native, as some do
      const picky = join(dir, 'picky-cc');
      writeFileSync(
        picky,
        `#!/bin/sh\nfor a in "$@"; do [ "$a" = -march=native ] && { echo "unsupported: $a" >&2; exit 1; }; done\nexec ${cc} "$@"\n`,
      );
      chmodSync(picky, 0o755);
      const run = (env: Record<string, string>) => {
        const p = Bun.spawnSync(['bun', '-e', SCRIPT], {
          cwd: import.meta.dir,
          env: { ...process.env, ...env },
          stderr: 'pipe',
        });
        expect(p.stderr.toString()).toBe('');
        return JSON.parse(p.stdout.toString()) as { status: { native: string[] }; root: string | null };
      };
      const plain = run({ FAUN_CC: picky, FAUN_SYNTAX_NATIVE_DIR: join(dir, 'plain') });
      const tuned = run({ FAUN_SYNTAX_NATIVE_DIR: join(dir, 'tuned') });
      expect(plain.status.native).toEqual(['go']);
      expect(tuned.status.native).toEqual(['go']);
      expect(plain.root).toContain('(source_file (package_clause');
      expect(plain.root).toBe(tuned.root);
      // each build is cached under its own key
      const libs = (sub: string) => readdirSync(join(dir, sub)).filter((f) => f.endsWith('.so'));
      expect(libs('plain')).toHaveLength(1);
      expect(libs('tuned')).toHaveLength(1);
      expect(libs('plain')[0]).not.toBe(libs('tuned')[0]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
  300_000,
);
