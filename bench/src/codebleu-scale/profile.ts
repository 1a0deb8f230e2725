/**
 * Where faun's CodeBLEU time goes on the codebleu-scale pairs, in one process on one thread, stage by stage
 * as `codebleu` runs them on the native parser: comment removal, the two n-gram parts (tokenising, counting,
 * clipping), the native parse (tree-sitter in C, the S-expression printed and split there, the flat arrays
 * read into JS), building the tree (nodes, subtree keys), dataflow (token texts, the walker, merge and
 * normalisation) and matching (syntax subtrees and dataflow). Each stage runs over every text after one
 * warm-up pass over the first 1,000 pairs; CPU milliseconds per pair and the share of the sum. What the whole
 * command costs beyond this sum (reading and parsing JSONL, the pool, writing, the run record, start-up) is
 * its time minus the sum, printed by `bun run bench codebleu-scale`.
 *
 *   bun bench/src/codebleu-scale/profile.ts [pairs.jsonl] [--limit N]
 */
import { readFileSync } from 'node:fs';
import {
  type CodeLang,
  corpusNgramMatch,
  corpusWeightedNgramMatch,
  countMatches,
  extractDataflow,
  FIELD_PARENTS,
  flattenFlat,
  KEYWORDS,
  matchDataflow,
  normalizeDataflow,
  pySplit,
  pyStrip,
  removeComments,
  sampleCounts,
} from '@faun/metrics/codebleu-parts';
import { loadNative, parseFlat, type SyntaxLang } from '@faun/syntax';
import { DEFAULT_PAIRS } from './mine.ts';

interface P {
  lang: CodeLang;
  hyp: string;
  ref: string;
}
interface Text {
  lang: CodeLang;
  code: string;
}

function cpuMs(fn: () => void): number {
  const c = process.cpuUsage();
  fn();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
}

const fields = (l: CodeLang) => FIELD_PARENTS[l === 'typescript' ? 'javascript' : l];

function must<T>(v: T | null, what: string): T {
  if (v === null)
    throw new Error(`${what}: the native parser gave no tree (build it: bun run bench codebleu-scale)`);
  return v;
}

/** The stages, each over all of `pairs` (texts in pair order: hypothesis, then reference). */
function stages(pairs: P[]): [string, () => void][] {
  const texts: Text[] = pairs.flatMap((p) => [
    { lang: p.lang, code: pyStrip(p.hyp) },
    { lang: p.lang, code: pyStrip(p.ref) },
  ]);
  const stripped = texts.map((t) => ({ lang: t.lang, code: removeComments(t.code, t.lang) }));
  const trees = stripped.map((t) => {
    const r = must(parseFlat(t.code, t.lang as SyntaxLang), t.lang);
    const flat = flattenFlat(r.tree, fields(t.lang));
    return {
      t,
      bytes: r.bytes,
      flat,
      dataflow: normalizeDataflow(extractDataflow(t.code, r.bytes, flat, t.lang)),
    };
  });
  let sink = 0;
  return [
    [
      'comment removal',
      () => {
        for (const [i, t] of stripped.entries())
          sink += removeComments((texts[i] as Text).code, t.lang).length;
      },
    ],
    [
      'n-gram + weighted n-gram',
      () =>
        pairs.forEach((p) => {
          const c = sampleCounts(
            [{ hyp: pySplit(pyStrip(p.hyp)), refs: [pySplit(pyStrip(p.ref))] }],
            KEYWORDS[p.lang],
          );
          sink += corpusNgramMatch(c) + corpusWeightedNgramMatch(c, false);
        }),
    ],
    [
      'native parse (C) + read arrays',
      () => {
        for (const t of stripped) sink += must(parseFlat(t.code, t.lang as SyntaxLang), t.lang).tree.count;
      },
    ],
    [
      'tree build (nodes, subtree keys)',
      () =>
        stripped.forEach((t) => {
          const r = must(parseFlat(t.code, t.lang as SyntaxLang), t.lang);
          sink += flattenFlat(r.tree, fields(t.lang)).size;
        }),
    ],
    [
      'dataflow (extract + normalise)',
      () => {
        for (const x of trees)
          sink += normalizeDataflow(extractDataflow(x.t.code, x.bytes, x.flat, x.t.lang)).length;
      },
    ],
    [
      'matching (syntax + dataflow)',
      () => {
        for (let i = 0; i < trees.length; i += 2) {
          const cand = trees[i] as (typeof trees)[number];
          const ref = trees[i + 1] as (typeof trees)[number];
          sink +=
            countMatches(ref.flat.subtrees, cand.flat.subtrees) +
            matchDataflow(cand.dataflow, ref.dataflow)[0];
        }
      },
    ],
    ['(keeps the work observable)', () => void (sink < 0 && console.log(sink))],
  ];
}

const args = process.argv.slice(2);
const li = args.indexOf('--limit');
const limit = li >= 0 ? Number(args[li + 1]) : Number.POSITIVE_INFINITY;
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--limit') ?? DEFAULT_PAIRS;
const pairs = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .slice(0, limit)
  .map((l) => JSON.parse(l) as P);
await loadNative([...new Set(pairs.map((p) => p.lang))] as SyntaxLang[], 'wait');
for (const [, fn] of stages(pairs.slice(0, 1000))) fn(); // warm-up
const measured = stages(pairs).map(([name, fn]) => [name, cpuMs(fn)] as const);
// "tree build" ran the parse again: its own share is the difference
const parse = measured[2]?.[1] ?? 0;
const rows = measured
  .filter(([name]) => !name.startsWith('('))
  .map(([name, ms]) => [name, name.startsWith('tree build') ? ms - parse : ms] as const);
const total = rows.reduce((s, [, ms]) => s + ms, 0);
console.log(`${pairs.length} pairs from ${file}; CPU ms on one thread (native parser), warm`);
for (const [name, ms] of rows)
  console.log(
    `  ${name.padEnd(34)} ${ms.toFixed(0).padStart(7)} ms  ${((1000 * ms) / pairs.length).toFixed(1).padStart(6)} µs/pair  ${((100 * ms) / total).toFixed(1).padStart(5)}%`,
  );
console.log(
  `  ${'sum'.padEnd(34)} ${total.toFixed(0).padStart(7)} ms  ${((1000 * total) / pairs.length).toFixed(1).padStart(6)} µs/pair`,
);
