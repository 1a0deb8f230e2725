import { afterAll, expect, test } from 'bun:test';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionInstance } from '@faun/schema';
import { specFor } from '../envs/specs.ts';
import type { Backend } from '../sandbox/sandbox.ts';
import { type Validation, validateInstances } from './validate.ts';
import { openJournal, validationKey } from './validate-journal.ts';

const root = mkdtempSync(join(tmpdir(), 'faun-vjournal-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const inst = (n: number): ExecutionInstance =>
  ({
    instance_id: `o/r-${n}`,
    repo: 'o/r',
    base_commit: 'a'.repeat(40),
    patch: `patch ${n}`,
    test_patch: `test ${n}`,
    fail_to_pass: [],
    pass_to_pass: [],
    language: 'python',
  }) as unknown as ExecutionInstance;

const verdict = (id: string, valid: boolean, reason: string | null = null): Validation => ({
  instance_id: id,
  valid,
  reason,
  derived: { fail_to_pass: valid ? ['t'] : [], pass_to_pass: [], flaky: [] },
  instance: null,
});

/** A backend that fails the test if anything is asked of it. */
const untouchable = new Proxy({} as Backend, {
  get(_, prop) {
    if (prop === 'then') return undefined;
    throw new Error(`backend.${String(prop)} was used`);
  },
});

test('the key changes with the row, the rule and the repeats, and not otherwise', () => {
  const a = inst(1);
  const k = validationKey(a, null, 'swebench', 3);
  expect(validationKey({ ...a }, null, 'swebench', 3)).toBe(k);
  expect(validationKey({ ...a, patch: 'other' }, null, 'swebench', 3)).not.toBe(k);
  expect(validationKey(a, null, 'multi-swe-bench', 3)).not.toBe(k);
  expect(validationKey(a, null, 'swebench', 1)).not.toBe(k);
  const spec = specFor({ ...a, repo: 'psf/requests', version: '2.0' } as ExecutionInstance);
  expect(spec).not.toBeNull();
  expect(validationKey(a, spec, 'swebench', 3)).not.toBe(k);
});

test('journalled instances are not run again; the others run and only real verdicts are kept', async () => {
  const path = join(root, 'resume.journal.jsonl');
  const xs = [inst(1), inst(2), inst(3)];
  const keys = xs.map((x) => validationKey(x, specFor(x), 'swebench', 2));
  const j = openJournal(path);
  await j.put(keys[0]!, verdict('o/r-1', true));
  await j.put(keys[2]!, verdict('o/r-3', false, 'no FAIL_TO_PASS test'));
  await j.put('other', verdict('o/r-9', false, 'before run 1: infra_error (docker died)'));
  expect(j.size).toBe(2); // the infrastructure failure is not kept

  const reopened = openJournal(path);
  const done: Array<[string, boolean, boolean | undefined]> = [];
  const out = await validateInstances(xs, {
    backend: untouchable,
    repeats: 2,
    // a journalled valid instance without a stability check would be checked now: off here
    goldChecks: 0,
    repoDirs: { 'o/r': join(root, 'no-such-clone') },
    journal: reopened,
    onDone: (id, ok, reused) => done.push([id, ok, reused]),
  });
  expect(out.map((v) => [v.instance_id, v.valid])).toEqual([
    ['o/r-1', true],
    ['o/r-2', false],
    ['o/r-3', false],
  ]);
  expect(out[1]!.reason).toContain('no-such-clone');
  expect(done).toEqual([
    ['o/r-1', true, true],
    ['o/r-2', false, undefined],
    ['o/r-3', false, true],
  ]);
  // The crash of instance 2 was not journalled: a later run tries it again.
  expect(openJournal(path).size).toBe(2);

  await reopened.compact([keys[2]!]);
  const lines = readFileSync(path, 'utf8').trim().split('\n');
  expect(lines.map((l) => JSON.parse(l).validation.instance_id)).toEqual(['o/r-3']);
});

test('a torn last line is ignored; a bad line elsewhere names the file and line', () => {
  const path = join(root, 'torn.journal.jsonl');
  writeFileSync(path, `${JSON.stringify({ key: 'k1', validation: verdict('a', true) })}\n`);
  appendFileSync(path, '{"key":"k2","validation":{"inst');
  expect(openJournal(path).get('k1')?.instance_id).toBe('a');
  expect(openJournal(path).size).toBe(1);

  const bad = join(root, 'bad.journal.jsonl');
  writeFileSync(bad, `garbage\n${JSON.stringify({ key: 'k1', validation: verdict('a', true) })}\n`);
  expect(() => openJournal(bad)).toThrow(`${bad}:1: not a journal entry`);
  writeFileSync(bad, `${JSON.stringify({ key: 'k1' })}\n`);
  expect(() => openJournal(bad)).toThrow(`${bad}:1: journal entry without key`);
});

test("a row's own image: ignored unless trusted, and then only from an allowed namespace", async () => {
  const row = { ...inst(7), image: 'evilns/r:latest' } as ExecutionInstance;
  const j = openJournal(join(root, 'images.journal.jsonl'));
  // journalled under the row as faun uses it without trust: no image of its own
  await j.put(validationKey({ ...row, image: null }, specFor(row), 'swebench', 1), verdict('o/r-7', true));
  const base = { backend: untouchable, repeats: 1, goldChecks: 0, journal: j };
  const [untrusted] = await validateInstances([row], base);
  expect(untrusted).toMatchObject({ instance_id: 'o/r-7', valid: true });
  const [trusted] = await validateInstances([row], { ...base, trustRows: true });
  expect(trusted?.valid).toBe(false);
  expect(trusted?.reason).toContain('evilns/r:latest');
});
