import { expect, test } from 'bun:test';
import { execWhole } from './container-sandbox.ts';

test('execWhole: multi-byte characters split across pipe chunks are decoded intact', async () => {
  // 300 000 bytes of 3-byte characters cross many 64 KiB pipe chunks at every possible byte offset.
  // (exitCode, not exit(): exit() may end the child before a pipe has taken all of a large write)
  const script =
    "process.stdout.write('✓'.repeat(100000)); process.stderr.write('é'.repeat(50000)); process.exitCode = 3";
  const r = await execWhole([process.execPath, '-e', script]);
  expect(r.exitCode).toBe(3);
  expect(r.stdout.length).toBe(100000);
  expect(r.stdout).toBe('✓'.repeat(100000));
  expect(r.stderr).toBe('é'.repeat(50000));
  expect(r.stdout.includes('\uFFFD')).toBe(false);
});

test('the old way, one string per chunk, breaks a character split across two chunks', () => {
  const bytes = new TextEncoder().encode('✓ Meridiem');
  const perChunk = Buffer.from(bytes.slice(0, 1)).toString() + Buffer.from(bytes.slice(1)).toString();
  expect(perChunk).not.toBe('✓ Meridiem');
  expect(new TextDecoder().decode(bytes)).toBe('✓ Meridiem');
});
