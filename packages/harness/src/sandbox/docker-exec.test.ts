import { expect, test } from 'bun:test';
import { localExec } from './sandbox.ts';

test('captured output: multi-byte characters split across pipe chunks are decoded intact', async () => {
  // 300 000 bytes of 3-byte characters cross many 64 KiB pipe chunks at every possible byte offset.
  const cmd = `${process.execPath} -e "process.stdout.write('✓'.repeat(100000)); process.exitCode = 3"`;
  const r = await localExec(cmd, process.cwd());
  expect(r.exitCode).toBe(3);
  expect(r.output).toBe('✓'.repeat(100000));
  expect(r.output.includes('\uFFFD')).toBe(false);
  expect(r.omittedBytes).toBe(0);
});

test('the old way, one string per chunk, breaks a character split across two chunks', () => {
  const bytes = new TextEncoder().encode('✓ Meridiem');
  const perChunk = Buffer.from(bytes.slice(0, 1)).toString() + Buffer.from(bytes.slice(1)).toString();
  expect(perChunk).not.toBe('✓ Meridiem');
  expect(new TextDecoder().decode(bytes)).toBe('✓ Meridiem');
});

test('output beyond the cap is dropped in the middle and counted; the exit status is kept', async () => {
  const r = await localExec('yes line | head -c 1000000; echo; echo LAST; exit 5', process.cwd(), {
    maxOutput: { headBytes: 1000, tailBytes: 1000 },
  });
  expect(r.exitCode).toBe(5);
  expect(r.omittedBytes).toBe(1_000_006 - 2000);
  expect(r.output.startsWith('line\nline\n')).toBe(true);
  expect(r.output.endsWith('LAST\n')).toBe(true);
  expect(r.output).toContain(`[faun: ${1_000_006 - 2000} bytes of output omitted here]`);
});
