import { expect, test } from 'bun:test';
import { identityConflict, type RunIdentity } from './run-identity.ts';

const id = (over: Partial<RunIdentity> = {}): RunIdentity => ({
  model: 'gold',
  predictions: 'gold',
  predictions_sha256: 'a'.repeat(64),
  instances: 'lite.jsonl',
  instances_sha256: 'b'.repeat(64),
  ...over,
});

test('same inputs (paths may differ) may resume; a new run directory has no conflict', () => {
  expect(identityConflict('r', { identity: id() }, id({ instances: './lite.jsonl' }))).toBeNull();
  expect(identityConflict('r', null, id())).toBeNull();
});

test('other predictions or instances are named with model and sha', () => {
  const other = id({ model: 'm', predictions: 'half.jsonl', predictions_sha256: 'c'.repeat(64) });
  expect(identityConflict('gold-1', { identity: id() }, other)).toBe(
    'run gold-1 was made with predictions gold (model gold, sha256 aaaaaaaaaaaa…), ' +
      'not half.jsonl (model m, sha256 cccccccccccc…)',
  );
  expect(identityConflict('gold-1', { identity: id() }, id({ instances_sha256: 'd'.repeat(64) }))).toBe(
    'run gold-1 was made with instances lite.jsonl (sha256 bbbbbbbbbbbb…), not lite.jsonl (sha256 dddddddddddd…)',
  );
});

test('a run stored before identities were recorded: only a different model is a conflict', () => {
  expect(identityConflict('r', { model: 'gold' }, id())).toBeNull();
  expect(identityConflict('r', { model: 'gold' }, id({ model: 'm' }))).toBe(
    'run r was made with model gold, not m',
  );
});
