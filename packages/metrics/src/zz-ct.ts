import { readFileSync } from 'node:fs';
import { totalCompileTime, heapSize } from 'bun:jsc';
import { codebleu, initCodeBleu } from './codebleu/index.ts';
import { clearCodeBleuCache } from './codebleu/cache.ts';
const lang = process.argv[2] as any;
const rows = readFileSync(`/tmp/w16/${lang}.jsonl`, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
await initCodeBleu([lang]);
for (let r = 0; r < 3; r++) {
  clearCodeBleuCache();
  const c2 = process.cpuUsage(); const t2 = performance.now();
  for (const p of rows) codebleu(p.ref, p.hyp, lang);
  const c3 = process.cpuUsage(c2);
  console.log(lang, 'cpu', (c3.user/1e3).toFixed(0), (c3.system/1e3).toFixed(0), 'wall', (performance.now() - t2).toFixed(0), 'compile ms', (totalCompileTime as any)(() => 0), 'heap MB', (heapSize()/1e6).toFixed(0), 'rss', (process.memoryUsage().rss/1e6).toFixed(0));
}
