/**
 * Where CodeBLEU's time goes on the real-code pairs, per component, in one process: comment removal,
 * parsing (wasm, and native when built), reading the tree (walk + S-expressions), dataflow, the two n-gram parts, and matching.
 * Each component runs over every text of the file in turn; the first pass (`cold`: compiled code still
 * warming up) and the median of three later passes (`warm`) are reported in CPU milliseconds.
 *
 *   bun bench/src/codebleu-real/components.ts [pairs.jsonl]
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
  flattenTree,
  KEYWORDS,
  matchDataflow,
  normalizeDataflow,
  pySplit,
  pyStrip,
  removeComments,
  sampleCounts,
} from '@faun/metrics/codebleu-parts';
import { initSyntax, nativeStatus, parseCode, parseFlat, type SyntaxLang } from '@faun/syntax';
import { DEFAULT_OUT } from './build.ts';

interface P {
  lang: CodeLang;
  hyp: string;
  ref: string;
}

function cpuMs(fn: () => void): number {
  const c = process.cpuUsage();
  fn();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
}

const file = process.argv[2] ?? `${DEFAULT_OUT}/pairs.jsonl`;
const pairs = readFileSync(file, 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as P);
const langs = [...new Set(pairs.map((p) => p.lang))];
await initSyntax(langs as SyntaxLang[]);
const texts = pairs.flatMap((p) => [
  { lang: p.lang, code: pyStrip(p.hyp) },
  { lang: p.lang, code: pyStrip(p.ref) },
]);
const stripped = texts.map((t) => ({ lang: t.lang, code: removeComments(t.code, t.lang) }));
const fields = (l: CodeLang) => FIELD_PARENTS[l === 'typescript' ? 'javascript' : l];

const steps: [string, () => void][] = [
  [
    'comment removal',
    () => {
      for (const t of texts) removeComments(t.code, t.lang);
    },
  ],
  [
    'parse (wasm)',
    () => {
      for (const t of stripped) parseCode(t.code, t.lang).delete();
    },
  ],
  [
    'parse + tree read',
    () =>
      stripped.forEach((t) => {
        const p = parseCode(t.code, t.lang);
        flattenTree(p, fields(t.lang));
        p.delete();
      }),
  ],
  [
    'parse + tree read + dataflow',
    () =>
      stripped.forEach((t) => {
        const p = parseCode(t.code, t.lang);
        const flat = flattenTree(p, fields(t.lang));
        normalizeDataflow(extractDataflow(t.code, p.bytes, flat, t.lang));
        p.delete();
      }),
  ],
  [
    'native parse + tree read',
    () => {
      for (const t of stripped) {
        const r = parseFlat(t.code, t.lang);
        if (r) flattenFlat(r.tree, fields(t.lang));
      }
    },
  ],
  [
    'native parse + read + dataflow',
    () => {
      for (const t of stripped) {
        const r = parseFlat(t.code, t.lang);
        if (r) {
          const flat = flattenFlat(r.tree, fields(t.lang));
          normalizeDataflow(extractDataflow(t.code, r.bytes, flat, t.lang));
        }
      }
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
        corpusNgramMatch(c);
        corpusWeightedNgramMatch(c, false);
      }),
  ],
];
const analyses = stripped.map((t) => {
  const p = parseCode(t.code, t.lang);
  const flat = flattenTree(p, fields(t.lang));
  const a = {
    subtrees: flat.subtrees,
    dataflow: normalizeDataflow(extractDataflow(t.code, p.bytes, flat, t.lang)),
  };
  p.delete();
  return a;
});
let matched = 0;
steps.push([
  'syntax + dataflow matching',
  () => {
    for (let i = 0; i < analyses.length; i += 2) {
      const cand = analyses[i]!;
      const ref = analyses[i + 1]!;
      matched += countMatches(ref.subtrees, cand.subtrees);
      matched += matchDataflow(cand.dataflow, ref.dataflow)[0];
    }
  },
]);

console.log(
  `${pairs.length} pairs (${texts.length} texts) from ${file}; CPU ms; native: ${nativeStatus().native.join(', ') || 'none'}`,
);
for (const [name, fn] of steps) {
  const cold = cpuMs(fn);
  const warm = [cpuMs(fn), cpuMs(fn), cpuMs(fn)].sort((a, b) => a - b)[1]!;
  console.log(
    `  ${name.padEnd(30)} cold ${cold.toFixed(0).padStart(6)}  warm ${warm.toFixed(0).padStart(6)}`,
  );
}
if (matched < 0) console.log(matched); // keeps the matching work observable
