import { expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RunHeader, RunSample, RunSummary } from '@faun/schema';
import { newRunId, RunRecord, redactOptions, SAMPLE_BATCH, SAMPLE_FLUSH_MS } from './run-record.ts';

test('a run directory holds header.json, samples.jsonl appended in order, and summary.json', async () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-run-'));
  const input = join(root, 'in.jsonl');
  writeFileSync(input, '{"a":1}\n');
  const dir = join(root, 'run');
  const rec = await RunRecord.start({
    dir,
    runId: 'r1',
    command: 'score',
    argv: ['score', '--task', 'fl'],
    options: { task: 'fl', token: 'not-a-real-token-123', apiKey: 'not-a-real-key' },
    inputs: [input],
    seed: 3,
  });
  const header = RunHeader.parse(JSON.parse(readFileSync(join(dir, 'header.json'), 'utf8')));
  expect(header.inputs[input]).toBe(createHash('sha256').update('{"a":1}\n').digest('hex'));
  expect(header.options).toEqual({ task: 'fl', token: '***', apiKey: '***' });
  expect(header.seed).toBe(3);
  expect(header.git.sha).toMatch(/^[0-9a-f]{40}$/);
  expect(readFileSync(join(dir, 'header.json'), 'utf8')).not.toContain('not-a-real-token-123');

  await Promise.all([
    rec.sample({ id: 'x', outcome: 'pass', duration_ms: 1 }),
    rec.sample({ id: 'y', outcome: 'fail', duration_ms: 2 }),
    rec.sample({ id: 'z', outcome: 'timeout', duration_ms: 3, error: 'slow' }),
  ]);
  // samples are readable before the run finishes (a crash leaves a usable partial record)
  const partial = readFileSync(join(dir, 'samples.jsonl'), 'utf8').trim().split('\n');
  expect(partial.map((l) => RunSample.parse(JSON.parse(l)).id)).toEqual(['x', 'y', 'z']);

  const summary = await rec.finish('success', { outputs: { scores: 'out.jsonl' } });
  const onDisk = RunSummary.parse(JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')));
  expect(onDisk.counts).toEqual({ pass: 1, fail: 1, error: 0, timeout: 1, skipped: 0 });
  expect(onDisk).toEqual(summary);
});

test('redactOptions hides secret-looking names only', () => {
  expect(redactOptions({ githubToken: 'x', password: 'p', model: 'm', token: '' })).toEqual({
    githubToken: '***',
    password: '***',
    model: 'm',
    token: '',
  });
});

test('run ids sort by time and do not collide within a second', () => {
  const a = newRunId('fl bm25', new Date('2026-01-02T03:04:05.007Z'), () => 0.5);
  expect(a).toBe('20260102-030405-007-fl_bm25-i000');
  expect(newRunId('x', new Date('2026-01-02T03:04:06Z')) > a).toBe(true);
  const same = new Date('2026-01-02T03:04:05.007Z');
  const ids = new Set(Array.from({ length: 50 }, () => newRunId('score', same)));
  expect(ids.size).toBe(50);
});

test('a second run never writes into an existing run directory unless it resumes it', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'faun-run-')), 'r');
  const init = { dir, runId: 'r', command: 'score', argv: [], options: {} };
  await RunRecord.start(init);
  await expect(RunRecord.start(init)).rejects.toThrow('already holds a run record');
  const resumed = await RunRecord.start({ ...init, resume: true });
  expect(resumed.dir).toBe(dir);
});

test('the header records the versions of key dependencies', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'faun-run-')), 'r');
  await RunRecord.start({ dir, runId: 'r', command: 'x', argv: [], options: {} });
  const header = RunHeader.parse(JSON.parse(readFileSync(join(dir, 'header.json'), 'utf8')));
  expect(header.dependencies.zod).toMatch(/^\d+\.\d+\.\d+/);
  expect(header.dependencies['@duckdb/node-api']).toMatch(/^\d+\.\d+\.\d+/);
});

test('resume commands quote arguments', async () => {
  const { resumeCommand } = await import('./invocation.ts');
  expect(resumeCommand(['crawl', '--repos', 'a/b', '--since', "it's"], 'faun')).toBe(
    "faun crawl --repos a/b --since 'it'\\''s'",
  );
});

test('many quick samples are appended in batches, in order, each promise resolving once its line is on disk', async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'faun-run-')), 'run');
  const rec = await RunRecord.start({ dir, runId: 'r', command: 'c', argv: [], options: {} });
  const path = join(dir, 'samples.jsonl');
  const n = SAMPLE_BATCH + 7;
  const written: Promise<void>[] = [];
  for (let i = 0; i < n; i++) written.push(rec.sample({ id: `s${i}`, outcome: 'pass', duration_ms: 0 }));
  // a full batch goes out at once (with whatever joined it before the append began), not after the timer
  const t0 = performance.now();
  await written[0];
  expect(performance.now() - t0).toBeLessThan(SAMPLE_FLUSH_MS);
  expect(readFileSync(path, 'utf8').trim().split('\n').length).toBeGreaterThanOrEqual(SAMPLE_BATCH);
  await written[n - 1];
  const ids = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((l) => RunSample.parse(JSON.parse(l)).id);
  expect(ids).toEqual(Array.from({ length: n }, (_, i) => `s${i}`));
  // a sample recorded just before finish() is written by it, without waiting for the timer
  void rec.sample({ id: 'last', outcome: 'fail', duration_ms: 0 });
  const t1 = performance.now();
  await rec.finish('success');
  expect(performance.now() - t1).toBeLessThan(SAMPLE_FLUSH_MS);
  expect(readFileSync(path, 'utf8').trim().split('\n').at(-1)).toContain('"last"');
});

test('open: the run starts before the header is written; samples follow it; a header that cannot be written fails finish', async () => {
  const root = mkdtempSync(join(tmpdir(), 'faun-rr-open-'));
  const input = join(root, 'in.jsonl');
  writeFileSync(input, '{"a":1}\n');
  const dir = join(root, 'run');
  const rec = RunRecord.open({ dir, runId: 'r1', command: 'x', argv: [], options: {}, inputs: [input] });
  void rec.sample({ id: 'a', outcome: 'pass', duration_ms: 1 });
  await rec.finish('success');
  const header = RunHeader.parse(JSON.parse(readFileSync(join(dir, 'header.json'), 'utf8')));
  expect(header.inputs[input]).toBe(createHash('sha256').update('{"a":1}\n').digest('hex'));
  expect(readFileSync(join(dir, 'samples.jsonl'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  expect(() => RunRecord.open({ dir, runId: 'r1', command: 'x', argv: [], options: {} })).toThrow(
    /already holds a run record/,
  );
  // header.json taken by a folder: the atomic write fails, and finish says so
  const bad = join(root, 'bad');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(join(bad, 'header.json'), { recursive: true });
  const rec2 = RunRecord.open({ dir: bad, runId: 'r2', command: 'x', argv: [], options: {}, resume: true });
  await expect(rec2.finish('success')).rejects.toThrow();
});
