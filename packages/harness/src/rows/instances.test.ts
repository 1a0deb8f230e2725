import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@faun/kit';
import { MSB_ROW } from '../../testing/rows.ts';
import { loadInstances, loadPredictions, toExecutionInstance } from './instances.ts';

const dir = mkdtempSync(join(tmpdir(), 'faun-inst-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const swe = {
  repo: 'psf/requests',
  instance_id: 'psf__requests-1',
  base_commit: 'abc1234',
  patch: 'P',
  test_patch: 'T',
  FAIL_TO_PASS: '["test_a.py::test_x"]',
  PASS_TO_PASS: ['test_a.py::test_y'],
  version: 2.0,
  environment_setup_commit: 'def5678',
};
const msb = { ...MSB_ROW, p2p_tests: {} };

describe('toExecutionInstance', () => {
  test('SWE-bench row with JSON-string and array lists', () => {
    const i = toExecutionInstance(swe, 'x:1');
    expect(i).toMatchObject({
      instance_id: 'psf__requests-1',
      language: 'python',
      fail_to_pass: ['test_a.py::test_x'],
      pass_to_pass: ['test_a.py::test_y'],
      version: '2',
    });
  });
  test('Multi-SWE-bench row', () => {
    const i = toExecutionInstance(msb, 'x:2');
    expect(i).toMatchObject({
      instance_id: 'fasterxml/jackson-core:pr-42',
      repo: 'fasterxml/jackson-core',
      base_commit: 'b42b42b',
      patch: 'F',
      language: 'java',
      fail_to_pass: ['com.x.ATest'],
      version: null, // PR 42 is in no PR range
    });
  });
  test('a Multi-SWE-bench row gets its environment version from its PR range; a version it carries wins', () => {
    expect(toExecutionInstance({ ...msb, number: 973 }, 'x:3').version).toBe('2.14');
    expect(toExecutionInstance({ ...msb, org: 'iamkun', repo: 'dayjs', number: 1000 }, 'x:4').version).toBe(
      'jest22',
    );
    expect(toExecutionInstance({ ...msb, number: 973, version: '9.9' }, 'x:5').version).toBe('9.9');
  });
  test("faun's own rows keep the rule they were validated under (source, Multi-SWE-bench categories)", () => {
    const m = toExecutionInstance({ ...msb, number: 973 }, 'x:6');
    // as `faun validate --out` writes it
    const own = JSON.parse(JSON.stringify(m)) as Record<string, unknown>;
    const back = toExecutionInstance(own, 'valid.jsonl:1');
    expect(back.source).toBe('multi-swe-bench');
    expect(back.msb).toEqual(m.msb);
    expect(back.fail_to_pass).toEqual(m.fail_to_pass);
    // a row with no categories is a SWE-bench row, whatever it says
    expect(toExecutionInstance({ ...own, msb: null }, 'valid.jsonl:2').source).toBe('swebench');
  });
  test('errors name the place and the field', () => {
    expect(() => toExecutionInstance({ ...swe, FAIL_TO_PASS: 'not json' }, 'd.jsonl:7')).toThrow(
      /d\.jsonl:7: FAIL_TO_PASS/,
    );
    expect(() => toExecutionInstance({ ...swe, base_commit: '' }, 'd.jsonl:3')).toThrow(InputError);
  });
});

test('loadInstances reads JSONL and JSON lists; loadPredictions handles gold, empty, SWE-bench and MSB', async () => {
  const jsonl = join(dir, 'i.jsonl');
  writeFileSync(jsonl, `${JSON.stringify(swe)}\n\n${JSON.stringify(msb)}\n`);
  const json = join(dir, 'i.json');
  writeFileSync(json, JSON.stringify([swe]));
  const insts = await loadInstances(jsonl);
  expect(insts.map((i) => i.instance_id)).toEqual(['psf__requests-1', 'fasterxml/jackson-core:pr-42']);
  expect((await loadInstances(json)).length).toBe(1);

  expect((await loadPredictions('gold', insts)).map((p) => p.patch)).toEqual(['P', 'F']);
  expect((await loadPredictions('empty', insts)).every((p) => p.patch === '')).toBe(true);

  const preds = join(dir, 'p.jsonl');
  writeFileSync(
    preds,
    [
      { instance_id: 'psf__requests-1', model_name_or_path: 'm', model_patch: 'MP' },
      { org: 'fasterxml', repo: 'jackson-core', number: 42, fix_patch: 'FP', model_name_or_path: 'm' },
    ]
      .map((r) => JSON.stringify(r))
      .join('\n'),
  );
  expect(await loadPredictions(preds, insts)).toEqual([
    { instance_id: 'psf__requests-1', model: 'm', patch: 'MP' },
    { instance_id: 'fasterxml/jackson-core:pr-42', model: 'm', patch: 'FP' },
  ]);

  const dup = join(dir, 'dup.jsonl');
  writeFileSync(
    dup,
    `${JSON.stringify({ instance_id: 'a', model_patch: '' })}\n${JSON.stringify({ instance_id: 'a' })}\n`,
  );
  expect(loadPredictions(dup, insts)).rejects.toThrow(/dup\.jsonl:2: duplicate prediction for a/);
});

test("a prediction naming a Multi-SWE-bench instance in SWE-bench's id form is matched to it", async () => {
  const insts = [toExecutionInstance(swe, 'a'), toExecutionInstance(msb, 'b')];
  const preds = join(dir, 'alias.jsonl');
  const row = { instance_id: 'fasterxml__jackson-core-42', model_name_or_path: 'm', model_patch: 'MP' };
  writeFileSync(preds, `${JSON.stringify(row)}\n`);
  const known = { ids: new Set(insts.map((i) => i.instance_id)), file: 'i.jsonl' };
  expect(await loadPredictions(preds, insts, known)).toEqual([
    { instance_id: 'fasterxml/jackson-core:pr-42', model: 'm', patch: 'MP' },
  ]);
  // both forms of one instance: one prediction too many
  writeFileSync(
    preds,
    `${JSON.stringify(row)}\n${JSON.stringify({ ...row, instance_id: 'fasterxml/jackson-core:pr-42' })}\n`,
  );
  expect(loadPredictions(preds, insts)).rejects.toThrow(
    /alias\.jsonl:2: duplicate prediction for fasterxml\/jackson-core:pr-42/,
  );
});

test('a bad JSONL line is an input error naming the file and line', async () => {
  const bad = join(dir, 'bad.jsonl');
  writeFileSync(bad, `${JSON.stringify(swe)}\n{not json\n`);
  const err = await loadInstances(bad).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(InputError);
  expect((err as Error).message).toStartWith(`${bad}:2: (line): not valid JSON`);
});
