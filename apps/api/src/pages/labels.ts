/** Display names of metrics on the pages, and each task's primary metric first. */
import { PRIMARY_METRIC } from '../routes/datasets.ts';

const LABELS: Record<string, string> = {
  codebleu_patch: 'CodeBLEU (edit text)',
  codebleu_file: 'CodeBLEU (edited file)',
  file_em: 'file EM (edited file)',
  apply_rate: 'edits apply',
  em: 'EM',
  rougeL: 'ROUGE-L',
  rouge1: 'ROUGE-1',
  bleu: 'BLEU',
  editsim: 'EditSim',
  resolved: 'resolved',
};

/** A metric's label: its paper name, with what a file-level CE score measures. */
export function metricLabel(m: string): string {
  return LABELS[m] ?? m;
}

/** `names` with the task's primary metric first (the rest sorted). */
export function orderMetrics(task: string, names: Iterable<string>): string[] {
  const all = [...new Set(names)].sort();
  const primary = (PRIMARY_METRIC[task] ?? []).find((m) => all.includes(m));
  return primary ? [primary, ...all.filter((m) => m !== primary)] : all;
}

/** The per-item value the task is judged by: 1/0 for exec and FL, the primary metric otherwise. */
export function primaryItemMetric(task: string): string {
  return (PRIMARY_METRIC[task] ?? ['em'])[0] ?? 'em';
}
