import { describe, expect, test } from 'bun:test';
import {
  createWriteStream,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import {
  countNonEmptyLines,
  JsonlError,
  type JsonlIssue,
  readJsonl,
  readJsonlAll,
  readLines,
  writeJsonlAtomic,
} from './jsonl.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'faun-jsonl-'));
const Row = z.object({ id: z.string(), n: z.number().int() });

describe('readJsonl', () => {
  const lines = [
    '{"id":"a","n":1}',
    '{"id":"b","n":2}',
    '{"id":"c","n":"three"}', // line 3: wrong type
    '{"id":"d","n":4}',
    '',
    '{"id":"f","n":6}',
    '{"id":"g", n: 7}', // line 7: not JSON
    '{"id":"h","n":8}',
  ];
  const write = () => {
    const dir = tmp();
    const file = join(dir, 'rows.jsonl');
    writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  };

  test('collect mode reports exactly the bad lines 3 and 7 with file:line: field', async () => {
    const file = write();
    const { values, issues } = await readJsonlAll(file, { schema: Row, errors: 'collect' });
    expect(issues.map((i) => i.line)).toEqual([3, 7]);
    expect(issues[0]?.field).toBe('n');
    expect(issues[0]?.file).toBe(file);
    expect(issues[1]?.field).toBe('');
    expect(issues[1]?.problem).toContain('not valid JSON');
    expect(values.map((v) => v.id)).toEqual(['a', 'b', 'd', 'f', 'h']);
  });

  test('stop mode throws at the first bad line with a message naming file, line and field', async () => {
    const file = write();
    const seen: string[] = [];
    let error: unknown;
    try {
      for await (const row of readJsonl(file, { schema: Row })) seen.push(row.value.id);
    } catch (e) {
      error = e;
    }
    expect(seen).toEqual(['a', 'b']);
    expect(error).toBeInstanceOf(JsonlError);
    expect((error as JsonlError).message).toStartWith(`${file}:3: n: `);
  });

  test('handles CRLF, no trailing newline, and multi-byte characters split across chunks', async () => {
    const dir = tmp();
    const file = join(dir, 'x.jsonl');
    const big = 'é'.repeat(1 << 20); // 2 MB of 2-byte characters: crosses the 1 MB read chunks
    writeFileSync(file, `{"id":"a","n":1}\r\n{"id":"${big}","n":2}`);
    const got: { line: number; id: string }[] = [];
    for await (const r of readJsonl(file, { schema: Row })) got.push({ line: r.line, id: r.value.id });
    expect(got.map((g) => g.line)).toEqual([1, 2]);
    expect(got[0]?.id).toBe('a');
    expect(got[1]?.id).toBe(big);
  });
});

describe('readLines and countNonEmptyLines', () => {
  test('a leading byte order mark is skipped (only there); CR only before LF; blank and whitespace lines', async () => {
    const file = join(tmp(), 'b.jsonl');
    const nbsp = '\u00a0';
    writeFileSync(file, `\ufeffa\r\n\ufeffb\n\n \t\n${nbsp}\nc\rd\n${nbsp}é\n\r`);
    const got: [number, string][] = [];
    for await (const { line, text } of readLines(file)) got.push([line, text]);
    expect(got).toEqual([
      [1, 'a'],
      [2, '\ufeffb'],
      [3, ''],
      [4, ' \t'],
      [5, nbsp],
      [6, 'c\rd'],
      [7, `${nbsp}é`],
      [8, '\r'],
    ]);
    // the same count as trimming every line read
    const want = got.filter(([, t]) => t.trim() !== '').length;
    expect(want).toBe(4);
    expect(countNonEmptyLines(file)).toBe(want);
    expect(countNonEmptyLines(file, 2)).toBe(2);
  });

  test('an empty file has no lines; a missing one throws ENOENT', async () => {
    const dir = tmp();
    writeFileSync(join(dir, 'e.jsonl'), '');
    const lines: unknown[] = [];
    for await (const l of readLines(join(dir, 'e.jsonl'))) lines.push(l);
    expect(lines).toEqual([]);
    expect(countNonEmptyLines(join(dir, 'e.jsonl'))).toBe(0);
    expect(() => countNonEmptyLines(join(dir, 'missing.jsonl'))).toThrow(/ENOENT/);
    await expect(readLines(join(dir, 'missing.jsonl')).next()).rejects.toThrow(/ENOENT/);
  });
});

describe('large files', () => {
  // A small streaming check; the 1 GB figure is `bun run bench jsonl`.
  test('a file of many 1 MiB read chunks streams line by line, lines across chunk boundaries intact', async () => {
    const dir = tmp();
    const file = join(dir, 'big.jsonl');
    const pad = 'x'.repeat(997); // lines of odd length, so they straddle the 1 MiB chunk boundaries
    const lineCount = 20_000; // ~20 MB
    const out = createWriteStream(file);
    for (let i = 0; i < lineCount; i++) out.write(`{"id":"r${i}","n":${i},"pad":"${pad}"}\n`);
    await new Promise<void>((resolve, reject) => out.on('error', reject).end(resolve));
    try {
      let count = 0;
      let sum = 0;
      for await (const { line, text } of readLines(file)) {
        count++;
        const row = JSON.parse(text) as { n: number; pad: string };
        expect(row.n).toBe(line - 1);
        if (row.pad.length !== 997) throw new Error(`line ${line}: cut at a chunk boundary`);
        sum += row.n;
      }
      expect(count).toBe(lineCount);
      expect(sum).toBe((lineCount * (lineCount - 1)) / 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('writeJsonlAtomic', () => {
  test('writes sorted keys, one record per line', async () => {
    const file = join(tmp(), 'out.jsonl');
    const n = await writeJsonlAtomic(file, [
      { b: 1, a: { d: 2, c: 3 } },
      { z: null, y: [2, 1] },
    ]);
    expect(n).toBe(2);
    expect(readFileSync(file, 'utf8')).toBe('{"a":{"c":3,"d":2},"b":1}\n{"y":[2,1],"z":null}\n');
  });

  test('an interrupted write (the producer throws) leaves the old file intact and no temp files', async () => {
    const dir = tmp();
    const file = join(dir, 'out.jsonl');
    writeFileSync(file, 'OLD\n');
    async function* failing() {
      for (let i = 0; i < 100_000; i++) {
        if (i === 50_000) throw new Error('disk on fire');
        yield { i };
      }
    }
    await expect(writeJsonlAtomic(file, failing())).rejects.toThrow('disk on fire');
    expect(readFileSync(file, 'utf8')).toBe('OLD\n');
    expect(readdirSync(dir)).toEqual(['out.jsonl']);
  });

  test('a writer process killed with SIGKILL mid-write leaves the old file intact', async () => {
    const dir = tmp();
    const file = join(dir, 'out.jsonl');
    writeFileSync(file, 'OLD\n');
    const script = join(dir, 'writer.ts');
    writeFileSync(
      script,
      `import { writeJsonlAtomic } from ${JSON.stringify(join(import.meta.dir, 'jsonl.ts'))};
async function* slow() { for (let i = 0; ; i++) { if (i % 10000 === 0) { console.log('progress'); await Bun.sleep(5); } yield { i, pad: 'y'.repeat(200) }; } }
await writeJsonlAtomic(${JSON.stringify(file)}, slow());`,
    );
    const child = Bun.spawn(['bun', script], { stdout: 'pipe' });
    const reader = child.stdout.getReader();
    let seen = 0;
    while (seen < 30) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += new TextDecoder().decode(value).split('progress').length - 1;
    }
    child.kill('SIGKILL');
    await child.exited;
    expect(readFileSync(file, 'utf8')).toBe('OLD\n');
    const tmpFiles = readdirSync(dir).filter((f) => f.startsWith('out.jsonl.tmp-'));
    expect(tmpFiles.length).toBe(1); // the partial temp file is left beside, never renamed over the target
    expect(existsSync(file)).toBe(true);
  }, 60_000);
});

test('JsonlIssue carries all four parts', () => {
  const i: JsonlIssue = { file: 'f', line: 1, field: 'x', problem: 'p' };
  expect(new JsonlError(i).message).toStartWith('f:1: x: p');
});
