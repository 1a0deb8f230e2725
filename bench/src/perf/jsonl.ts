/**
 * `bun run bench jsonl [--megabytes N]`: streams a generated JSONL file of about N MB (default 1,100, a
 * little over 1 GB) through @faun/schema's `readLines` and reports lines/second and the growth of the
 * resident set while reading (target: under 256 MiB, i.e. memory bounded by the chunk size, not the file).
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLines } from '@faun/schema';
import { parseFlags } from '../args.ts';

export const FLAGS = { megabytes: 1100 };
const TARGET_RSS_GROWTH = 256 * 1024 * 1024;

async function generate(file: string, lineCount: number): Promise<void> {
  const pad = 'x'.repeat(1000);
  await new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('error', reject);
    let i = 0;
    const pump = () => {
      let ok = true;
      while (i < lineCount && ok) {
        let chunk = '';
        for (let k = 0; k < 1000 && i < lineCount; k++, i++)
          chunk += `{"id":"r${i}","n":${i},"pad":"${pad}"}\n`;
        ok = out.write(chunk);
      }
      if (i < lineCount) out.once('drain', pump);
      else out.end(resolve);
    };
    pump();
  });
}

export default async function jsonl(args: string[]): Promise<Record<string, unknown>> {
  const { megabytes } = parseFlags('jsonl', args, FLAGS);
  const lineCount = Math.max(1, Math.round((megabytes * 1_000_000) / 1030));
  const dir = mkdtempSync(join(tmpdir(), 'faun-bench-jsonl-'));
  try {
    const file = join(dir, 'big.jsonl');
    await generate(file, lineCount);
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    let peak = before;
    let count = 0;
    const t0 = performance.now();
    for await (const { text } of readLines(file)) {
      count++;
      if (count % 50_000 === 0) {
        JSON.parse(text);
        peak = Math.max(peak, process.memoryUsage().rss);
      }
    }
    const seconds = (performance.now() - t0) / 1000;
    if (count !== lineCount) throw new Error(`read ${count} lines of ${lineCount}`);
    const growth = peak - before;
    const figures = {
      file_bytes: Bun.file(file).size,
      lines: count,
      lines_per_second: Math.round(count / seconds),
      rss_growth_bytes: growth,
      rss_growth_target_bytes: TARGET_RSS_GROWTH,
      meets_target: growth < TARGET_RSS_GROWTH,
    };
    console.log(
      `${count.toLocaleString('en')} lines (${(figures.file_bytes / 1e9).toFixed(2)} GB) in ${seconds.toFixed(1)} s; ` +
        `RSS grew ${(growth / 2 ** 20).toFixed(0)} MiB (target < 256 MiB) ${figures.meets_target ? 'ok' : 'ABOVE TARGET'}`,
    );
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
