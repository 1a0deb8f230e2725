import { expect, test } from 'bun:test';
import { parseDockerfile, toolchainImageTag } from '@faun/services';
import { testInstance } from '../run/test-instance.ts';
import { envDockerfile, envTag, instanceDockerfile, toolchainTag } from './docker-images.ts';
import { LANGUAGE_DEFAULTS, REPO_SPECS } from './specs.ts';

const specs = [...REPO_SPECS, ...Object.values(LANGUAGE_DEFAULTS).filter((s) => s !== null)];

test('every spec Dockerfile is one the confined builder executes, each RUN line a step', () => {
  expect(specs.length).toBeGreaterThan(40);
  const inst = testInstance({
    test_patch:
      'diff --git a/tests/test_a.py b/tests/test_a.py\n--- a/tests/test_a.py\n+++ b/tests/test_a.py\n',
  });
  for (const spec of specs) {
    for (const df of [envDockerfile(spec), instanceDockerfile(spec, inst)]) {
      const steps = parseDockerfile(df);
      expect(steps.filter((s) => s.kind === 'run').length).toBe(
        df.split('\n').filter((l) => l.startsWith('RUN ')).length,
      );
      expect(steps.filter((s) => s.kind === 'copy').length).toBe(
        df.split('\n').filter((l) => l.startsWith('COPY ')).length,
      );
    }
  }
});

test('image cache keys are those images built before the confined builder had', () => {
  // tags are content hashes of the Dockerfile text, which the builder change left as it was
  expect(toolchainImageTag('python')).toBe('faun/toolchain-python:5f66b7271201');
  expect(toolchainImageTag('go')).toBe('faun/toolchain-go:36236dd91c57');
  const py = LANGUAGE_DEFAULTS.python;
  if (!py) throw new Error('no python default spec');
  expect(toolchainTag(py)).toBe('faun/toolchain-python:5f66b7271201');
  expect(envTag(py)).toBe('faun/env-default-python:4ef4343ba2fe');
});
