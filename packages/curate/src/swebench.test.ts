import { describe, expect, test } from 'bun:test';
import { sharedPath } from '@faun/kit';
import { applySearchReplace, parseSearchReplace } from '@faun/metrics';
import { readJsonlAll } from '@faun/schema';
import { importRow, normalizeRow } from './swebench.ts';

const rowsPath = sharedPath('data/swebench-lite/with-files.jsonl');
const djangoPath = sharedPath('data/swebench-lite/django.jsonl');

describe.skipIf(rowsPath === null)('SWE-bench import (shared with-files rows)', () => {
  test('every row gives a CE item whose gold blocks turn files_before into files_after exactly', async () => {
    const { values } = await readJsonlAll<Record<string, unknown>>(rowsPath as string);
    expect(values.length).toBe(26);
    let ce = 0;
    let fl = 0;
    for (const [i, raw] of values.entries()) {
      const row = normalizeRow(raw, `with-files.jsonl:${i + 1}`);
      const out = await importRow(row, null);
      expect(out.skipped).toEqual([]);
      for (const item of out.ce) {
        ce++;
        const before = (raw.files_before as Record<string, string>)[item.path];
        const after = (raw.files_after as Record<string, string>)[item.path];
        expect(item.file_before).toBe(before as string);
        // Checked with the scorer's own parser and applier, byte for byte.
        const parsed = parseSearchReplace(item.gold_patch);
        expect(parsed.problems).toEqual([]);
        expect(parsed.blocks.every((b) => b.path === item.path)).toBe(true);
        const applied = applySearchReplace(before as string, parsed.blocks);
        expect(applied.ok && applied.result === after).toBe(true);
      }
      for (const item of out.fl) {
        fl++;
        expect(item.tree).toContain(item.gold_path);
        expect(item.gold_path).toBe((raw.gold_files as string[])[0] as string);
      }
    }
    expect({ ce, fl }).toEqual({ ce: 26, fl: 26 });
  });

  test('problem statement splits into title and body; PR number from the instance id', async () => {
    const { values } = await readJsonlAll<Record<string, unknown>>(rowsPath as string);
    const row = normalizeRow(values[0] as Record<string, unknown>, 'x');
    expect(row).toMatchObject({
      id: 'pytest-dev__pytest-5221',
      title: 'Display fixture scope with `pytest --fixtures`',
      prNumber: 5221,
      issueNumber: null,
    });
    expect(row.body.startsWith('It would be useful')).toBe(true);
  });
});

const lite = ['with-files', 'django', 'other-repos'].map((name) => ({
  name,
  path: sharedPath(`data/swebench-lite/${name}.jsonl`),
}));

describe.skipIf(lite.some((f) => f.path === null))('every SWE-bench Lite row', () => {
  test('gives a CE item, or a CE skip with a specific reason (rows with files: always an item)', async () => {
    const outcomes: Record<string, Record<string, number>> = {};
    for (const { name, path } of lite) {
      const counts: Record<string, number> = {};
      const { values } = await readJsonlAll<Record<string, unknown>>(path as string);
      for (const [i, raw] of values.entries()) {
        const out = await importRow(normalizeRow(raw, `${name}.jsonl:${i + 1}`), null);
        const reasons = out.skipped.filter((s) => s.task === 'ce').map((s) => s.reason);
        // Exactly one outcome per row: an item or one reason.
        expect(out.ce.length + reasons.length, `${name}.jsonl:${i + 1}`).toBe(1);
        const key = out.ce.length === 1 ? 'ce item' : (reasons[0] as string);
        if (raw.files_before) expect(key, `${name}.jsonl:${i + 1}`).toBe('ce item');
        counts[key] = (counts[key] ?? 0) + 1;
      }
      outcomes[name] = counts;
    }
    const noSource = 'no files_before/files_after and no --repo-dir / --api-url source';
    expect(outcomes).toEqual({
      'with-files': { 'ce item': 26 },
      django: { [noSource]: 114 },
      'other-repos': { [noSource]: 83 },
    });
  });
});

describe.skipIf(djangoPath === null)('rows without files', () => {
  test('without a source, FL and CE are skipped with a reason naming the fix', async () => {
    const { values } = await readJsonlAll<Record<string, unknown>>(djangoPath as string);
    const row = normalizeRow(values[0] as Record<string, unknown>, 'django.jsonl:1');
    const out = await importRow(row, null);
    expect(out.fl.length + out.ce.length).toBe(0);
    expect(out.skipped.map((s) => s.task).sort()).toEqual(['ce', 'fl']);
  });
});

describe('row formats', () => {
  const patch =
    'diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,3 @@\n a = 1\n-b = 2\n+b = 3\n c = 4\n';
  test('Multi-SWE-bench row with a source: tree and before from the source, after from the patch', async () => {
    const raw = {
      org: 'acme',
      repo: 'widget',
      number: 7,
      title: 'Fix b',
      body: 'Sets b to 3',
      base: { sha: 'abc' },
      resolved_issues: [{ number: 5, title: 'b is wrong', body: 'b should be 3' }],
      fix_patch: patch,
    };
    const source = {
      tree: async () => ['m.py', '.github/x.py', 'README.md'],
      file: async () => 'a = 1\nb = 2\nc = 4\n',
    };
    const out = await importRow(normalizeRow(raw, 'x'), source);
    expect(out.fl[0]).toMatchObject({
      id: 'acme/widget:pr-7', // Multi-SWE-bench's own id, as `faun verify` gives the row
      tree: ['m.py'],
      gold_path: 'm.py',
      issue_number: 5,
    });
    expect(out.ce[0]).toMatchObject({ file_after: 'a = 1\nb = 3\nc = 4\n', pr_number: 7, pr_title: 'Fix b' });
    expect(out.ce[0]?.gold_patch).toBe(
      'm.py\n<<<<<<< SEARCH\na = 1\nb = 2\nc = 4\n\n=======\na = 1\nb = 3\nc = 4\n\n>>>>>>> REPLACE\n',
    );
  });
  test('a row of another format is rejected with the field name', () => {
    expect(() => normalizeRow({ foo: 1 }, 'rows.jsonl:3')).toThrow('rows.jsonl:3: instance_id: missing');
  });
  test('multi-file patches are skipped for both tasks', async () => {
    const two = `${patch}${patch.replaceAll('m.py', 'n.py')}`;
    const raw = { instance_id: 'a__b-1', repo: 'a/b', base_commit: 'c', patch: two, problem_statement: 't' };
    const out = await importRow(normalizeRow(raw, 'x'), null);
    expect(out.skipped.map((s) => s.reason)).toEqual([
      'the patch changes 2 files (FL and CE need exactly one)',
      'the patch changes 2 files (FL and CE need exactly one)',
    ]);
  });
});
