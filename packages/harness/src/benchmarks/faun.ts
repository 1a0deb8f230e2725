/**
 * faun's own rows (pure): what `faun validate --out` writes — ExecutionInstance records, SWE-bench's field
 * names in lower case, ids as the row they were validated from gave them. Each row keeps the grading rule it
 * was validated under (`source`, and under Multi-SWE-bench's rule its test categories in `msb`), so its
 * instances are held by that rule's benchmark; this module only reads the rows.
 */
import type { MsbGrading } from '@faun/schema';
import type { Benchmark } from './benchmark.ts';
import { faunShape } from './row-fields.ts';
import { SWEBENCH_SHAPE, sweInstance } from './swebench.ts';

export const FAUN: Benchmark = {
  ...SWEBENCH_SHAPE,
  name: 'faun',
  label: 'faun',
  recognises: faunShape,
  holds: () => false,
  toInstance(row, where) {
    const inst = sweInstance(row, where);
    if (row.source !== 'multi-swe-bench' || typeof row.msb !== 'object' || row.msb === null) return inst;
    const msb = row.msb as MsbGrading;
    return {
      ...inst,
      fail_to_pass: [...new Set([...msb.f2p_tests, ...msb.s2p_tests, ...msb.n2p_tests])],
      pass_to_pass: msb.p2p_tests,
      source: 'multi-swe-bench',
      msb,
    };
  },
};
