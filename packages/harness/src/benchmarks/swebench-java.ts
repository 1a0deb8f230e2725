/**
 * SWE-bench-java (pure): SWE-bench's row form, ids, grading rule, published images and report, for rows of
 * Java repositories (`language: java`); its per-test command form is the environment spec's
 * (`perTestCommand`, envs/specs.ts).
 */
import type { Benchmark } from './benchmark.ts';
import { faunShape, languageOf, msbShape } from './row-fields.ts';
import { SWEBENCH_SHAPE } from './swebench.ts';

export const SWEBENCH_JAVA: Benchmark = {
  ...SWEBENCH_SHAPE,
  name: 'swebench-java',
  label: 'SWE-bench-java',
  recognises: (row) => !msbShape(row) && !faunShape(row) && languageOf(row) === 'java',
  holds: (inst) => (inst.source ?? 'swebench') === 'swebench' && inst.language === 'java',
};
