/** Parity with the reference parsers on real test logs (vectors computed by the references themselves). */
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { isParserName, parseLog } from './index.ts';

const ROOT = join(import.meta.dir, '..', '..', 'vectors', 'real-logs');

interface Vector {
  project: string;
  parser: string;
  log: string;
  statuses: Record<string, string>;
}

function vectors(): { file: string; dir: string; v: Vector }[] {
  const out: { file: string; dir: string; v: Vector }[] = [];
  for (const project of readdirSync(ROOT, { withFileTypes: true })) {
    if (!project.isDirectory()) continue;
    const dir = join(ROOT, project.name);
    for (const f of readdirSync(dir).sort()) {
      if (!f.endsWith('.json')) continue;
      out.push({
        file: join(project.name, f),
        dir,
        v: JSON.parse(readFileSync(join(dir, f), 'utf8')) as Vector,
      });
    }
  }
  return out;
}

function readLog(dir: string, name: string): string {
  const raw = readFileSync(join(dir, name));
  return (name.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
}

const all = vectors();

describe('real logs parse exactly as the reference parsers do', () => {
  test('the corpus covers at least 12 projects and 3,000 test-status lines', () => {
    expect(new Set(all.map((x) => x.v.project)).size).toBeGreaterThanOrEqual(12);
    expect(all.reduce((n, x) => n + Object.keys(x.v.statuses).length, 0)).toBeGreaterThanOrEqual(3000);
  });
  for (const { file, dir, v } of all) {
    test(file, () => {
      if (!isParserName(v.parser)) throw new Error(`${file}: parser "${v.parser}" is not a faun parser name`);
      const got = parseLog(v.parser, readLog(dir, v.log));
      expect(got as Record<string, string>).toEqual(v.statuses);
    });
  }
});
