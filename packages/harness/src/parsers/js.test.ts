import { describe, expect, test } from 'bun:test';
import { parseJest, parseMocha, parseVitest } from './js.ts';
import { parseNodeSpec, parseNodeTest } from './node.ts';

describe('node --test', () => {
  test('TAP with nested subtests, skip and todo directives', () => {
    const log = [
      'TAP version 13',
      '# Subtest: adds',
      'ok 1 - adds',
      '  ---',
      '  duration_ms: 0.51',
      '  ...',
      '# Subtest: math',
      '    # Subtest: subtracts',
      '    not ok 1 - subtracts',
      '      ---',
      "      error: 'Expected values to be strictly equal'",
      '      ...',
      '    # Subtest: later',
      '    ok 2 - later # TODO',
      '    1..2',
      'not ok 2 - math',
      '# Subtest: skipped one',
      'ok 3 - skipped one # SKIP not today',
      '1..3',
      '# pass 1',
    ].join('\n');
    expect(parseNodeTest(log)).toEqual({
      adds: 'PASSED',
      'math > subtracts': 'FAILED',
      'math > later': 'SKIPPED',
      'skipped one': 'SKIPPED',
    });
  });

  test('spec reporter', () => {
    const log = [
      '✔ adds (0.4ms)',
      '▶ math',
      '  ✖ subtracts (1.2ms)',
      '  ✔ multiplies (0.1ms)',
      '▶ math (2ms)',
      '﹣ later (0.1ms) # SKIP',
      'ℹ tests 4',
    ].join('\n');
    expect(parseNodeSpec(log)).toEqual({
      adds: 'PASSED',
      'math > subtracts': 'FAILED',
      'math > multiplies': 'PASSED',
      later: 'SKIPPED',
    });
  });
});

describe('jest', () => {
  test('--json report embedded in the log wins over text', () => {
    const report = {
      numFailedTestSuites: 1,
      testResults: [
        {
          name: '/testbed/sum.test.js',
          assertionResults: [
            { fullName: 'sum adds', title: 'adds', status: 'passed', ancestorTitles: ['sum'] },
            { fullName: 'sum handles {braces}', title: 'x', status: 'failed', ancestorTitles: ['sum'] },
            { fullName: 'sum later', title: 'later', status: 'todo', ancestorTitles: ['sum'] },
          ],
        },
      ],
    };
    const log = `  ✓ decoy (1 ms)\n${JSON.stringify(report)}\nDone in 1.2s`;
    expect(parseJest(log)).toEqual({
      'sum adds': 'PASSED',
      'sum handles {braces}': 'FAILED',
      'sum later': 'SKIPPED',
    });
  });

  test('verbose text', () => {
    const log = [
      ' PASS  ./sum.test.js',
      '  sum',
      '    ✓ adds (3 ms)',
      '    ✕ subtracts (1 ms)',
      '    ○ skipped later',
    ].join('\n');
    expect(parseJest(log)).toEqual({ adds: 'PASSED', subtracts: 'FAILED', later: 'SKIPPED' });
  });
});

test('vitest verbose text', () => {
  const log = [
    ' ✓ src/sum.test.ts > sum > adds 1ms',
    ' × src/sum.test.ts > sum > subtracts 2ms',
    ' ↓ src/sum.test.ts > sum > later [skipped]',
    ' Test Files  1 failed (1)',
  ].join('\n');
  expect(parseVitest(log)).toEqual({
    'src/sum.test.ts > sum > adds': 'PASSED',
    'src/sum.test.ts > sum > subtracts': 'FAILED',
    'src/sum.test.ts > sum > later': 'SKIPPED',
  });
});

describe('mocha', () => {
  test('json reporter', () => {
    const log = JSON.stringify(
      {
        stats: { tests: 3 },
        passes: [{ fullTitle: 'calc adds' }],
        failures: [{ fullTitle: 'calc subtracts' }],
        pending: [{ fullTitle: 'calc later' }],
      },
      null,
      2,
    );
    expect(parseMocha(log)).toEqual({
      'calc adds': 'PASSED',
      'calc subtracts': 'FAILED',
      'calc later': 'SKIPPED',
    });
  });

  test('spec reporter with nested suites; failure details are not tests', () => {
    const log = [
      '',
      '  calc',
      '    ✓ adds',
      '    1) subtracts',
      '    nested',
      '      - later',
      '',
      '  1 passing (5ms)',
      '  1 pending',
      '  1 failing',
      '',
      '  1) calc',
      '       subtracts:',
      '     AssertionError: expected 1 to equal 2',
    ].join('\n');
    expect(parseMocha(log)).toEqual({
      'calc adds': 'PASSED',
      'calc subtracts': 'FAILED',
      'calc nested later': 'SKIPPED',
    });
  });
});
