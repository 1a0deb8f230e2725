/**
 * Throughput on the mined rows of codebleu-dev.jsonl (one process, warm, CPU time; the Python reference does
 * about 300 pairs/s on this machine kind). Prints the figure; fails only on a gross regression.
 */
import { beforeAll, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { sharedPath } from '@faun/kit';
import { codebleu, corpusCodebleu, initCodeBleu } from './codebleu.ts';
import type { CodeLang } from './types.ts';

beforeAll(async () => {
  await initCodeBleu();
});

const path = sharedPath('data/metrics/codebleu-dev.jsonl');

test.if(path !== null)(
  'codebleu throughput on the mined dev rows',
  () => {
    const rows = readFileSync(path as string, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { lang: CodeLang; hyp: string; ref: string; source: string })
      .filter((r) => r.source !== 'hand' && r.source !== 'edge');
    const cpuMs = () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1000;
    };
    let best = 0;
    for (let rep = 0; rep < 3; rep++) {
      const t0 = cpuMs();
      for (const r of rows) codebleu(r.ref, r.hyp, r.lang);
      best = Math.max(best, (rows.length / (cpuMs() - t0)) * 1000);
    }
    const byLang = new Map<CodeLang, { refs: string; hyp: string }[]>();
    for (const r of rows) byLang.set(r.lang, [...(byLang.get(r.lang) ?? []), { refs: r.ref, hyp: r.hyp }]);
    const t0 = cpuMs();
    for (const [lang, pairs] of byLang) corpusCodebleu(pairs, lang);
    const corpus = (rows.length / (cpuMs() - t0)) * 1000;
    console.log(
      `codebleu: ${best.toFixed(0)} pairs/s per pair, ${corpus.toFixed(0)} pairs/s corpus-level (${rows.length} mined rows)`,
    );
    expect(best).toBeGreaterThan(150);
  },
  60_000,
);
