import { expect, test } from 'bun:test';
import {
  compareBetter,
  formatMetric,
  METRICS,
  metricFloor,
  metricLabel,
  metricShortLabel,
  orderMetrics,
  PRIMARY_METRICS,
  primaryMetricOf,
} from './registry.ts';
import { scoreFl, scoreQa } from './score/items.ts';

test('every metric a task scores is in the registry, with a label and a floor in its range', () => {
  const base = { v: 1 as const, id: 'a/b#1', repo: 'a/b', language: 'python' as const, issue_number: 1 };
  const issue = { ...base, issue_title: 't', issue_body: 'b' };
  const qa = scoreQa(
    {
      ...issue,
      task: 'qa',
      question_association: null,
      context: [],
      answer: 'x y',
      answer_association: null,
    },
    'x',
  );
  const fl = scoreFl({ ...issue, task: 'fl', base_commit: null, tree: ['a.py'], gold_path: 'a.py' }, 'a.py');
  const ce = ['codebleu_patch', 'codebleu_file', 'apply_rate', 'file_em', 'resolved'];
  for (const name of [...Object.keys(qa.scores), ...Object.keys(fl.scores), ...ce]) {
    const info = METRICS[name];
    expect(info?.label.length).toBeGreaterThan(0);
    expect(metricFloor(name)).toBe(info!.range[0]);
  }
  for (const [task, names] of Object.entries(PRIMARY_METRICS))
    expect(METRICS[names[0]!], `primary metric of ${task}`).toBeDefined();
});

test('labels, display and ordering come from one place', () => {
  expect(metricLabel('codebleu_patch')).toBe('CodeBLEU (edit text)');
  expect(metricLabel('unknown_metric')).toBe('unknown_metric');
  expect(formatMetric('em', 0.5)).toBe('0.500');
  expect(formatMetric('indel_ratio', 87.25)).toBe('87.3');
  expect(formatMetric('em', Number.NaN)).toBe('—');
  expect(orderMetrics('ce', ['file_em', 'codebleu_file', 'codebleu_patch'])).toEqual([
    'codebleu_patch',
    'codebleu_file',
    'file_em',
  ]);
  expect(primaryMetricOf('qa', ['bleu', 'rougeL'])).toBe('rougeL');
  expect(primaryMetricOf('qa', ['bleu'])).toBe('bleu');
  expect(primaryMetricOf('other', ['b', 'a'])).toBe('a');
  expect(primaryMetricOf('other', [])).toBeNull();
  expect(compareBetter('em', 1, 0)).toBe(-1);
  expect([0.2, 0.9, 0.5].sort((a, b) => compareBetter('bleu', a, b))).toEqual([0.9, 0.5, 0.2]);
});

test('a table column under its task uses the short name where there is one, else the label', () => {
  expect(metricShortLabel('codebleu_patch')).toBe('CodeBLEU');
  expect(metricLabel('codebleu_patch')).toBe('CodeBLEU (edit text)');
  expect(metricShortLabel('rougeL')).toBe('ROUGE-L');
  expect(metricShortLabel('no_such_metric')).toBe('no_such_metric');
});
