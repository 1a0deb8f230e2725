import { expect, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withLock } from './lock.ts';

test('withLock serializes concurrent holders', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'faun-lock-')), 'l');
  const events: string[] = [];
  const hold = (name: string) =>
    withLock(path, async () => {
      events.push(`${name}+`);
      await Bun.sleep(50);
      events.push(`${name}-`);
    });
  await Promise.all([hold('a'), hold('b')]);
  expect(events).toHaveLength(4);
  expect(events[0]?.[0]).toBe(events[1]?.[0]);
  expect(events[2]?.[0]).toBe(events[3]?.[0]);
  expect(existsSync(path)).toBe(false);
});

test('withLock takes over a lock whose owner process is gone', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'faun-lock-')), 'l');
  mkdirSync(path);
  writeFileSync(join(path, 'pid'), '999999');
  const value = await withLock(path, async () => 7);
  expect(value).toBe(7);
});
