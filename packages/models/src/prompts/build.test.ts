import { describe, expect, test } from 'bun:test';
import type { CeItem, FlItem, QaItem } from '@faun/schema';
import { ablateItem, buildPrompt, checkAblate } from './build.ts';
import { cutMiddle } from './truncate.ts';

const base = { v: 1 as const, repo: 'o/r', language: 'python' as const, issue_number: 1 };
const fl: FlItem = {
  ...base,
  id: 'o/r#1',
  task: 'fl',
  issue_title: 'TITLE-MARK',
  issue_body: 'BODY-MARK',
  base_commit: null,
  tree: Array.from({ length: 2000 }, (_, i) => `pkg/dir${i}/file_${i}.py`),
  gold_path: 'pkg/dir1/file_1.py',
};
const ce: CeItem = {
  ...base,
  id: 'o/r#2',
  task: 'ce',
  issue_title: 'T',
  issue_body: 'B',
  base_commit: null,
  pr_number: 3,
  pr_title: 'PR-TITLE-MARK',
  pr_body: 'PR-BODY-MARK',
  path: 'a.py',
  file_before: 'x = 1\n',
  file_after: 'x = 2\n',
  gold_patch: '',
};
const qa: QaItem = {
  ...base,
  id: 'o/r#3',
  task: 'qa',
  issue_title: 'How?',
  issue_body: 'Question',
  question_association: null,
  context: [{ role: 'responder', author_association: 'MEMBER', content: 'Which version?' }],
  answer: 'a',
  answer_association: null,
};
const user = (p: ReturnType<typeof buildPrompt>) => p.messages.find((m) => m.role === 'user')!.content;

describe('prompts', () => {
  test('each task states its output format and carries its version', () => {
    const f = buildPrompt({ ...fl, tree: ['a.py'] }, 10_000);
    expect(f.promptVersion).toBe('fl-v1');
    expect(user(f)).toContain('Answer with the file path only');
    const c = buildPrompt(ce, 10_000);
    expect(c.promptVersion).toBe('ce-v1');
    expect(user(c)).toContain('<<<<<<< SEARCH');
    expect(user(c)).toContain('PR-TITLE-MARK');
    const q = buildPrompt(qa, 10_000);
    expect(q.promptVersion).toBe('qa-v1');
    expect(user(q)).toContain('triple backticks');
    expect(user(q)).toContain('[responder] Which version?');
  });

  test('ablation removes the named parts', () => {
    const parts = checkAblate(['pr_body', 'issue_title', 'pr_body']);
    expect(parts).toEqual(['issue_title', 'pr_body']);
    const c = user(buildPrompt(ablateItem(ce, parts), 10_000));
    expect(c).not.toContain('PR-BODY-MARK');
    expect(c).not.toContain('Issue title');
    expect(c).toContain('PR-TITLE-MARK');
    expect(() => checkAblate(['issue'])).toThrow("unknown part 'issue'");
  });

  test('a long tree is cut in the middle to fit, keeping the issue, and marked truncated', () => {
    const full = buildPrompt(fl, 1_000_000);
    expect(full.truncated).toBe(false);
    const cut = buildPrompt(fl, 4000);
    expect(cut.truncated).toBe(true);
    expect(cut.inputTokens).toBeLessThanOrEqual(4000);
    expect(cut.inputTokens).toBeGreaterThan(3000);
    const text = user(cut);
    expect(text).toContain('TITLE-MARK');
    expect(text).toContain('BODY-MARK');
    expect(text).toContain('pkg/dir0/file_0.py');
    expect(text).toContain('pkg/dir1999/file_1999.py');
    expect(text).not.toContain('pkg/dir1000/file_1000.py');
    expect(text).toMatch(/… \[\d+ lines omitted to fit the context window\] …/);
  });

  test('cutMiddle keeps head and tail lines', () => {
    const lines = Array.from({ length: 20 }, (_, i) => `line${String(i).padStart(2, '0')}`);
    const text = lines.join('\n');
    expect(cutMiddle(text, 1000)).toBe(text);
    // Budget = 108 - 80 (room for the marker) = 28 characters = four 7-character lines.
    expect(cutMiddle(text, 108).split('\n')).toEqual([
      'line00',
      'line01',
      '… [16 lines omitted to fit the context window] …',
      'line18',
      'line19',
    ]);
  });
});
