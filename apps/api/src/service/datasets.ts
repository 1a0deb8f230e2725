/**
 * The datasets a server scores against: every `*.jsonl` file in the datasets folder whose first record is
 * a TaskItem (QA/FL/CE) or an ExecutionInstance. Items are read on first use and kept in memory.
 */
import { readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { sha256File } from '@faun/kit';
import { ExecutionInstance, readJsonlAll, TaskItem } from '@faun/schema';

export type DatasetTask = 'qa' | 'fl' | 'ce' | 'exec';

export interface DatasetInfo {
  name: string;
  task: DatasetTask;
  path: string;
  itemCount: number;
  sha256: string;
}

export type DatasetItems =
  | { task: 'qa' | 'fl' | 'ce'; items: TaskItem[] }
  | { task: 'exec'; items: ExecutionInstance[] };

async function firstLine(path: string): Promise<string | null> {
  const text = await Bun.file(path)
    .slice(0, 1 << 20)
    .text();
  const line = text.split('\n').find((l) => l.trim());
  return line ?? null;
}

function taskOf(line: string): DatasetTask | null {
  try {
    const v = JSON.parse(line) as Record<string, unknown>;
    if (typeof v.instance_id === 'string') return 'exec';
    if (v.task === 'qa' || v.task === 'fl' || v.task === 'ce') return v.task;
  } catch {
    // not JSON: not a dataset
  }
  return null;
}

export class DatasetRegistry {
  private readonly infos = new Map<string, DatasetInfo>();
  private readonly loaded = new Map<string, Promise<DatasetItems>>();

  /** Registers the JSONL files of `dir` (non-recursive, plus one level of subfolders). */
  async scan(dir: string): Promise<DatasetInfo[]> {
    const files: string[] = [];
    const walk = (d: string, depth: number) => {
      let names: string[];
      try {
        names = readdirSync(d).sort();
      } catch {
        return;
      }
      for (const n of names) {
        const p = join(d, n);
        const st = statSync(p);
        if (st.isDirectory() && depth < 1) walk(p, depth + 1);
        else if (st.isFile() && n.endsWith('.jsonl')) files.push(p);
      }
    };
    walk(dir, 0);
    for (const path of files) await this.add(path);
    return this.list();
  }

  /** Registers one dataset file under its base name (without `.jsonl`). */
  async add(path: string, name = basename(path, '.jsonl')): Promise<DatasetInfo | null> {
    const line = await firstLine(path);
    const task = line ? taskOf(line) : null;
    if (!task) return null;
    const text = await Bun.file(path).text();
    const itemCount = text.split('\n').filter((l) => l.trim()).length;
    const info = { name, task, path, itemCount, sha256: await sha256File(path) };
    this.infos.set(name, info);
    this.loaded.delete(name);
    return info;
  }

  list(): DatasetInfo[] {
    return [...this.infos.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  get(name: string): DatasetInfo | undefined {
    return this.infos.get(name);
  }

  /** The dataset's records, validated (throws InputError naming file and line). */
  items(name: string): Promise<DatasetItems> {
    const info = this.infos.get(name);
    if (!info) throw new Error(`unknown dataset '${name}'`);
    let p = this.loaded.get(name);
    if (!p) {
      p =
        info.task === 'exec'
          ? readJsonlAll(info.path, { schema: ExecutionInstance }).then((r) => ({
              task: 'exec' as const,
              items: r.values,
            }))
          : readJsonlAll(info.path, { schema: TaskItem }).then((r) => ({
              task: info.task as 'qa' | 'fl' | 'ce',
              items: r.values,
            }));
      this.loaded.set(name, p);
    }
    return p;
  }
}
