/**
 * The PGlite folder lock cannot be held twice: four processes try to take it at once, 100 rounds, each
 * round starting from a stale lock left by a process that is gone; never more than one holds it. A lock
 * whose holder is gone is taken over with a note naming it.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireLock, LOCK_FILE, readLock } from './lock.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-api-lock4-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const CHILD = `
import { acquireLock } from ${JSON.stringify(join(import.meta.dir, 'lock.ts'))};
let held = null;
for await (const line of console) {
  if (line === 'try') {
    try { held = acquireLock(process.argv[2], 'test', { notice: () => {} }); console.log('got'); }
    catch { console.log('busy'); }
  } else if (line === 'release') { held?.release(); held = null; console.log('released'); }
}
`;

/** A PID that no process has (a child that already exited). */
async function deadPid(): Promise<number> {
  const p = Bun.spawn(['true']);
  await p.exited;
  return p.pid;
}

function lines(stream: ReadableStream<Uint8Array>) {
  const reader = stream.getReader();
  let buf = '';
  return async (): Promise<string> => {
    for (;;) {
      const i = buf.indexOf('\n');
      if (i >= 0) {
        const l = buf.slice(0, i);
        buf = buf.slice(i + 1);
        return l;
      }
      const { done, value } = await reader.read();
      if (done) throw new Error('child exited');
      buf += new TextDecoder().decode(value);
    }
  };
}

test('4 concurrent openers never both hold the lock (100 rounds from a stale lock)', async () => {
  const dir = join(root, 'db');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(dir);
  const script = join(root, 'child.ts');
  writeFileSync(script, CHILD);
  const kids = Array.from({ length: 4 }, () => {
    const p = Bun.spawn(['bun', script, dir], { stdin: 'pipe', stdout: 'pipe', stderr: 'inherit' });
    return { p, next: lines(p.stdout as ReadableStream<Uint8Array>) };
  });
  const say = (k: (typeof kids)[number], line: string) => {
    k.p.stdin.write(`${line}\n`);
    k.p.stdin.flush();
  };
  try {
    const dead = await deadPid();
    const holders: number[] = [];
    for (let round = 0; round < 100; round++) {
      writeFileSync(
        join(dir, LOCK_FILE),
        JSON.stringify({ pid: dead, role: 'serve', started: '2020-01-01T00:00:00Z' }),
      );
      for (const k of kids) say(k, 'try');
      const answers = await Promise.all(kids.map((k) => k.next()));
      const got = answers.flatMap((a, i) => (a === 'got' ? [i] : []));
      holders.push(got.length);
      for (const i of got) {
        say(kids[i]!, 'release');
        expect(await kids[i]!.next()).toBe('released');
      }
    }
    expect(Math.max(...holders)).toBe(1);
    expect(holders.filter((n) => n === 1).length).toBeGreaterThan(90);
  } finally {
    for (const k of kids) k.p.kill();
    await Promise.all(kids.map((k) => k.p.exited));
  }
}, 120_000);

test('a lock left by a process that is gone is taken over, with a note naming it', async () => {
  const dir = mkdtempSync(join(root, 'stale-'));
  const dead = await deadPid();
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: dead, role: 'serve', started: 'yesterday' }));
  expect(readLock(dir)).toBeNull();
  const notes: string[] = [];
  const lock = acquireLock(dir, 'serve', { notice: (l) => notes.push(l) });
  try {
    expect(notes.join('\n')).toContain(`PID ${dead}`);
    expect(notes.join('\n')).toContain('no longer running');
    expect(readLock(dir)?.pid).toBe(process.pid);
    expect(() => acquireLock(dir, 'serve')).toThrow(`PID ${process.pid}`);
  } finally {
    lock.release();
  }
  expect(readLock(dir)).toBeNull();
});
