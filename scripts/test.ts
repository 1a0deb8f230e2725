/**
 * Runs every `bun test` suite (unit and integration) and ends with one plain closing line,
 * `tests: N passed, N failed, N skipped`, which CI reads. Extra arguments go to `bun test`.
 */
const args = process.argv.slice(2);
const proc = Bun.spawn(['bun', 'test', ...args], { stdout: 'inherit', stderr: 'pipe', env: process.env });
let tail = '';
const decoder = new TextDecoder();
for await (const chunk of proc.stderr) {
  process.stderr.write(chunk);
  tail = (tail + decoder.decode(chunk)).slice(-20000);
}
const code = await proc.exited;
const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}\\b`, 'm').exec(tail)?.[1] ?? 0);
const passed = count('pass');
const failed = count('fail');
const skipped = count('skip');
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
if (passed === 0 && code === 0) {
  console.error('no test ran');
  process.exit(1);
}
process.exit(code === 0 && failed === 0 ? 0 : 1);

export {};
