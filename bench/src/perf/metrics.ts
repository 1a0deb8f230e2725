/**
 * Metric throughput, single process: pairs/second on the reference vector pairs for BLEU (nltk
 * method1), ROUGE-1+L, the Indel ratio, and CodeBLEU (codebleu-dev.jsonl's mined rows). Timing: warm-up
 * pass, then repeated timed loops of ≥ `--seconds` (default 1) each; the median round is reported, both
 * per wall-clock second and per second of this process's CPU time (user + system). The CPU figure is
 * the one compared with the targets: on a shared 2-core machine other processes steal wall-clock time.
 * Then the real-code CodeBLEU benchmark (whole commands; ../codebleu-real/bench.ts).
 */
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { sharedPath } from '@faun/kit';
import { bleu, type CodeLang, codebleu, indelRatio, initCodeBleu, rouge1AndL } from '@faun/metrics';
import { parseFlags } from '../args.ts';
import { realCodeBench } from '../codebleu-real/bench.ts';

interface Pair {
  hyp: string;
  ref: string;
  lang?: CodeLang;
  source?: string;
}

const TARGETS: Record<string, number> = {
  bleu_nltk_m1: 25_000,
  rouge1_rougeL: 3_000,
  indel: 3_000,
  codebleu: 3_000,
};

function load(rel: string): Pair[] {
  const p = sharedPath(rel);
  if (!p) return [];
  return readFileSync(p, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Pair);
}

interface Rate {
  wall: number;
  cpu: number;
}

function rate(pairs: Pair[], fn: (p: Pair) => unknown, seconds: number, rounds = 5): Rate {
  for (const p of pairs) fn(p); // warm-up
  const rates: Rate[] = [];
  for (let r = 0; r < rounds; r++) {
    let n = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    let elapsed = 0;
    do {
      for (const p of pairs) fn(p);
      n += pairs.length;
      elapsed = (performance.now() - t0) / 1000;
    } while (elapsed < seconds);
    const c = process.cpuUsage(c0);
    rates.push({ wall: n / elapsed, cpu: n / ((c.user + c.system) / 1e6) });
  }
  rates.sort((a, b) => a.cpu - b.cpu);
  return rates[Math.floor(rates.length / 2)]!;
}

export const FLAGS = { seconds: 1, mirrors: undefined };

export default async function metricsBench(args: string[]): Promise<Record<string, unknown>> {
  const { seconds } = parseFlags('metrics', args, FLAGS);
  const text = load('data/metrics/text-dev.jsonl');
  const code = load('data/metrics/codebleu-dev.jsonl').filter(
    (r) => r.source !== 'hand' && r.source !== 'edge',
  );
  const figures: Record<string, unknown> = {
    text_pairs: text.length,
    code_pairs: code.length,
    seconds_per_round: seconds,
  };
  const results: Record<string, Rate> = {};
  if (text.length) {
    results.bleu_nltk_m1 = rate(text, (p) => bleu(p.hyp, p.ref), seconds);
    results.rouge1_rougeL = rate(text, (p) => rouge1AndL(p.hyp, p.ref), seconds);
    results.indel = rate(text, (p) => indelRatio(p.hyp, p.ref), seconds);
  }
  if (code.length) {
    await initCodeBleu([...new Set(code.map((c) => c.lang!))]);
    results.codebleu = rate(code, (p) => codebleu(p.ref, p.hyp, p.lang!), seconds, 3);
  }
  figures.load_average_1m = Math.round(loadavg()[0]! * 100) / 100;
  for (const [k, r] of Object.entries(results)) {
    const target = TARGETS[k] ?? 0;
    const v = r.cpu;
    const ok = v >= target;
    figures[`${k}_pairs_per_cpu_s`] = Math.round(v);
    figures[`${k}_pairs_per_wall_s`] = Math.round(r.wall);
    figures[`${k}_target`] = target;
    figures[`${k}_meets_target`] = ok;
    console.log(
      `${k.padEnd(16)} ${Math.round(v).toLocaleString('en').padStart(9)} pairs/CPU-s (${Math.round(r.wall).toLocaleString('en')}/wall-s)  (target ≥ ${target.toLocaleString('en')}) ${ok ? 'ok' : 'BELOW TARGET'}`,
    );
  }
  Object.assign(figures, await realCodeBench(args));
  return figures;
}
