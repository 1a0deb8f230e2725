/**
 * The paper tables of a FAUN-Eval-style study, regenerated from prediction files: Table 4, significance,
 * RQ2 ablation, RQ3 length analysis (table + SVG/PNG figures), per-language and per-repository breakdowns
 * and execution results, as Markdown, LaTeX, CSV and JSON in one folder, with a manifest of every input's
 * hash. Byte-identical on re-run (seeded bootstrap, sorted keys, no timestamps).
 */
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FAUN_VERSION, gitInfo } from '@faun/kit';
import {
  type Prediction,
  stableStringify,
  type TaskItem,
  type TaskName,
  writeFileAtomic,
} from '@faun/schema';
import { buildTables } from './build.ts';
import { lengthFigureSvg, svgToPng } from './figure.ts';
import { loadDatasets, loadExecution, loadPredictions } from './load.ts';
import { type ScoredRun, TASK_LABEL, type Table } from './model.ts';
import { toCsv, toJson, toLatex, toMarkdown } from './render.ts';

/** Per-item metric values of one prediction group: item id → metric key (TASK_METRICS) → value. */
export type Scorer = (
  task: TaskName,
  items: TaskItem[],
  predictions: Prediction[],
) => Promise<Map<string, Record<string, number>>>;

export interface PaperOptions {
  datasets: string;
  predictions: string;
  /** Folder of ExecutionResult JSONL files (optional). */
  execution?: string;
  out: string;
  seed?: number;
  resamples?: number;
  /** Per-item scorer; default `metricsScorer`. */
  scorer?: Scorer;
  log?: (line: string) => void;
}

export interface PaperResult {
  tables: Table[];
  files: string[];
}

export async function buildPaper(opts: PaperOptions): Promise<PaperResult> {
  const log = opts.log ?? (() => {});
  const seed = opts.seed ?? 0;
  const ds = await loadDatasets(opts.datasets);
  const { groups, hashes: predHashes } = await loadPredictions(opts.predictions);
  const runs: ScoredRun[] = [];
  for (const g of groups) {
    const items = ds.items[g.task];
    if (!items) {
      log(`skipping ${g.model} (${g.task}): no ${g.task}.jsonl in ${opts.datasets}`);
      continue;
    }
    log(`scoring ${TASK_LABEL[g.task]} ${g.model}${g.ablate.length ? ` without ${g.ablate.join('+')}` : ''}`);
    runs.push({
      task: g.task,
      model: g.model,
      ablate: g.ablate,
      scores: await (opts.scorer ?? metricsScorer)(g.task, items, g.predictions),
    });
  }
  const langs = new Map(ds.infos.map((i) => [i.id, i.language]));
  const exec = opts.execution ? await loadExecution(opts.execution, langs) : [];
  const tables = buildTables({ items: ds.infos, runs, exec, seed, resamples: opts.resamples });
  await mkdir(opts.out, { recursive: true });
  const files: string[] = [];
  const write = async (name: string, data: string | Uint8Array) => {
    const path = join(opts.out, name);
    if (typeof data === 'string') await writeFileAtomic(path, data);
    else {
      await writeFile(`${path}.tmp`, data);
      await rename(`${path}.tmp`, path);
    }
    files.push(path);
  };
  for (const t of tables) {
    await write(`${t.name}.md`, toMarkdown(t));
    await write(`${t.name}.tex`, toLatex(t));
    await write(`${t.name}.csv`, toCsv(t));
    await write(`${t.name}.json`, toJson(t));
  }
  for (const task of ['qa', 'fl', 'ce'] as TaskName[]) {
    const length = tables.find((t) => t.name === `length-${task}`);
    const svg = length && lengthFigureSvg(length, TASK_LABEL[task]);
    if (!svg) continue;
    await write(`length-${task}.svg`, svg);
    await write(`length-${task}.png`, await svgToPng(svg));
  }
  await write('tables.md', `# Results\n\n${tables.map(toMarkdown).join('\n')}`);
  const git = gitInfo();
  const manifest = {
    faun_version: FAUN_VERSION,
    git_sha: git.sha,
    git_dirty: git.dirty,
    seed,
    resamples: opts.resamples ?? 1000,
    datasets: ds.hashes,
    predictions: predHashes,
    runs: runs.map((r) => ({ task: r.task, model: r.model, ablate: r.ablate, items: r.scores.size })),
    outputs: files.map((f) => f.slice(opts.out.length + 1)).sort(),
  };
  await write('manifest.json', `${stableStringify(manifest, 2)}\n`);
  log(`wrote ${files.length} files to ${opts.out}`);
  return { tables, files };
}

export type { ExecRow, ItemInfo, ScoredRun, Table } from './model.ts';

/** The default scorer: `scoreTask` of @faun/metrics — the numbers `faun score` prints. */
export const metricsScorer: Scorer = async (task, items, predictions) => {
  const { scoreTask } = await import('@faun/metrics');
  const result = await scoreTask(task, items, predictions, { bootstrap: 0 });
  return new Map(result.items.map((i) => [i.id, i.scores]));
};
