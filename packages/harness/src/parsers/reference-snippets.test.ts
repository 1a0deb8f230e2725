/**
 * Reference behaviours on small logs. Every expected map below is what the reference parser itself
 * returned for the log (SWE-bench 7a21e0577295, Multi-SWE-bench 24f493f8a103, run locally); a log on which
 * Multi-SWE-bench's parser raises is expected to give no results.
 */
import { describe, expect, test } from 'bun:test';
import { parseLog } from './index.ts';

const LOGS = {
  cargo:
    'running 3 tests\ntest a::one ... ok\ntest a::two ... ignored\ntest a::three ... FAILED\ntest b::slow ... ignored, needs network\n',
  jest: 'PASS test/plugin/utc.test.js\n  Suite A\n    ✓ adds numbers (3 ms)\n    ○ skipped later\n  ✓ Format\nFAIL test/b.test.js (1.2 s)\n  ✕ breaks (10 ms)\n',
  jest_json: '[PASSED] Suite A > adds numbers\n[FAILED] Suite A > Suite B > breaks\n[PASSED] top level\n',
  redux:
    'PASS test/a.spec.js\n  ✓ adds numbers (3ms)\n  ✕ not read\nFAIL test/b.spec.js (1.2s)\n  1) breaks here\n',
  jest_nosuite: '  ✓ orphan (1 ms)\nPASS test/a.test.js\n',
  mocha:
    '\n  axios\n    request\n      ✔ sends a request (12ms)\n      1) handles errors\n    ✔ exports\n\n  2 passing (20ms)\n  1 failing\n\n  1) axios\n       request\n         handles errors:\n     Error: boom\n',
  maven:
    '[INFO] Running com.x.ATest\n[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 1, Time elapsed: 0.12 s - in com.x.ATest\n[INFO] Running com.x.BTest\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! - in com.x.BTest\n[INFO] Running com.x.CTest\n[WARNING] Tests run: 2, Failures: 0, Errors: 0, Skipped: 2, Time elapsed: 0.01 s - in com.x.CTest\n[INFO] Tests run: 10, Failures: 1, Errors: 0, Skipped: 3\n',
  gson: '[INFO] Scanning\nRunning com.google.gson.ATest\nTests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 sec\nRunning com.google.gson.BTest\nTests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 sec <<< FAILURE!\n',
  swe_maven:
    '+ mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.ATest#one\n[INFO] BUILD SUCCESS\n+ mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.ATest#two\n+ mvnd test -B -T 1C -pl gson -Dtest=com.google.gson.BTest\n[INFO] BUILD FAILURE\n[INFO] BUILD SUCCESS\n',
  gradle:
    'com.x.ATest > adds PASSED\ncom.x.ATest > breaks FAILED\ncom.x.ATest > later\nWARNING: something\nPASSED\ncom.x.ATest > ignored SKIPPED\n> Task :test FAILED\n',
  gtest:
    '[ RUN      ] P/Param.Works/0\n[       OK ] P/Param.Works/0 (0 ms)\n[ RUN      ] P/Param.Works/1\n[  FAILED  ] P/Param.Works/1, where GetParam() = 1 (2 ms)\n[       OK ] Plain.Test (1 ms)\n[  FAILED  ] 1 test, listed below:\n[  FAILED  ] P/Param.Works/1, where GetParam() = 1\n',
  dup_go:
    '--- FAIL: TestA (0.00s)\n--- PASS: TestA (0.00s)\n--- PASS: TestB/sub (0.00s)\n--- FAIL: TestB/other (0.01s)\n--- SKIP: TestC (0.00s)\nFAIL\tgithub.com/x/y\t0.02s\n',
  dup_cargo: 'test a ... FAILED\ntest a ... ok\n',
  node_spec:
    '> marked@15.0.8 test:unit\n> node --test --test-reporter=spec test/unit/*.test.js\n\n▶ Lexer\n  ▶ paragraph\n    ✔ space between paragraphs (1.2ms)\n    ✖ should fail (0.3ms)\n  ▶ paragraph (3.1ms)\n  ✔ code (0.5ms)\n▶ Lexer (10.2ms)\n▶ marked\n  ✔ marked (2ms)\n▶ marked (4ms)\n✔ parse\n✔ top level (12.5ms)\n▶ Hooks\n  ✔ postprocess async\n✖ failing tests:\n\ntest at test/unit/Lexer.test.js:10:5\n✖ should fail (0.3ms)\n  AssertionError [ERR_ASSERTION]: oops\nℹ tests 6\n▶ CommonMark\n  ▶ Tabs\n    ✔ Tabs should pass example 1 (1.1ms)\n\t✔ tab indented (1ms)\n',
  dup_node_spec: '✔ a (1ms)\n✖ a\n',
  ctest:
    '1/3 Test #1: args-test ........................   Passed    0.01 sec\n2/3 Test #2: format-test ......................***Failed    0.20 sec\n3/3 Test #3: os-test ..........................***Failed\n',
  automake: 'PASS: tests/jqtest\nFAIL: tests/shtest\nSKIP: tests/utf8test\n',
};

describe('SWE-bench parsers', () => {
  test('cargo: ignored tests are not recorded', () => {
    expect(parseLog('swebench-cargo', LOGS.cargo)).toEqual({ 'a::one': 'PASSED', 'a::three': 'FAILED' });
  });
  test('jest --verbose: the id is the bare title, ○ is SKIPPED', () => {
    expect(parseLog('swebench-jest', LOGS.jest)).toEqual({
      'adds numbers': 'PASSED',
      'skipped later': 'SKIPPED',
      Format: 'PASSED',
      breaks: 'FAILED',
    });
  });
  test('jest --json through the jq transform: ancestors joined by " > "', () => {
    expect(parseLog('swebench-jest-json', LOGS.jest_json)).toEqual({
      'Suite A > adds numbers': 'PASSED',
      'Suite A > Suite B > breaks': 'FAILED',
      'top level': 'PASSED',
    });
  });
  test('maven: one test per -Dtest invocation, matched in order to BUILD results', () => {
    expect(parseLog('swebench-maven', LOGS.swe_maven)).toEqual({
      'com.google.gson.ATest#one': 'PASSED',
      'com.google.gson.ATest#two': 'FAILED',
      'com.google.gson.BTest': 'PASSED',
    });
  });
  test('gradle: ids are "Class > method", a status on a later line counts, SKIPPED is not read', () => {
    expect(parseLog('swebench-gradle', LOGS.gradle)).toEqual({
      'com.x.ATest > adds': 'PASSED',
      'com.x.ATest > breaks': 'FAILED',
      'com.x.ATest > later': 'PASSED',
    });
  });
  test('googletest: ", where GetParam() = 1" stays in the id; the summary list is not read', () => {
    expect(parseLog('swebench-googletest', LOGS.gtest)).toEqual({
      'P/Param.Works/0': 'PASSED',
      'P/Param.Works/1, where GetParam() = 1': 'FAILED',
      'Plain.Test': 'PASSED',
    });
  });
  test('gotest: a test reported twice keeps its last status', () => {
    expect(parseLog('swebench-gotest', LOGS.dup_go)).toEqual({
      TestA: 'PASSED',
      'TestB/sub': 'PASSED',
      'TestB/other': 'FAILED',
      TestC: 'SKIPPED',
    });
  });
  test('cargo: a test reported twice keeps its last status', () => {
    expect(parseLog('swebench-cargo', LOGS.dup_cargo)).toEqual({ a: 'PASSED' });
  });
  test('highlight.js mocha: suite.title ids, nothing after "N passing"', () => {
    expect(parseLog('swebench-highlightjs', LOGS.mocha)).toEqual({
      'request.sends a request': 'PASSED',
      'request.handles errors': 'FAILED',
      'request.exports': 'PASSED',
    });
  });
  test('jq: automake PASS/FAIL, SKIP not read', () => {
    expect(parseLog('swebench-jq', LOGS.automake)).toEqual({
      'tests/jqtest': 'PASSED',
      'tests/shtest': 'FAILED',
    });
  });
});

describe('Multi-SWE-bench parsers', () => {
  test('node spec reporter (marked): suites reset at column 0, a single suite named as its test, time suffixes dropped', () => {
    expect(parseLog('msb-node-spec-suites', LOGS.node_spec)).toEqual({
      'CommonMark:Tabs:Tabs should pass example 1': 'PASSED',
      'CommonMark:Tabs:tab indented': 'PASSED',
      'Hooks:failing tests:': 'FAILED',
      'Hooks:postprocess async': 'PASSED',
      'Hooks:should fail': 'FAILED',
      'Lexer:paragraph:paragraph (3.1ms):code': 'PASSED',
      'Lexer:paragraph:should fail': 'FAILED',
      'Lexer:paragraph:space between paragraphs': 'PASSED',
      marked: 'PASSED',
      'marked (4ms):parse': 'PASSED',
      'marked (4ms):top level': 'PASSED',
    });
  });
  test('node spec reporter (marked): a test both passed and failed gives nothing (the reference raises)', () => {
    expect(parseLog('msb-node-spec-suites', LOGS.dup_node_spec)).toEqual({});
  });
  test('cargo: ignored is SKIPPED', () => {
    expect(parseLog('msb-cargo', LOGS.cargo)).toEqual({
      'a::one': 'PASSED',
      'a::three': 'FAILED',
      'a::two': 'SKIPPED',
      'b::slow': 'SKIPPED',
    });
  });
  test('dayjs jest: file:title ids, files are tests too, describe blocks left out', () => {
    expect(parseLog('msb-jest-suite', LOGS.jest)).toEqual({
      'test/plugin/utc.test.js:Format': 'PASSED',
      'test/plugin/utc.test.js:adds numbers': 'PASSED',
      'test/plugin/utc.test.js': 'PASSED',
      'test/b.test.js:breaks': 'FAILED',
      'test/b.test.js': 'FAILED',
    });
  });
  test('redux jest: file lines and bare ✓ / `1)` titles, each a test of its own', () => {
    expect(parseLog('msb-jest-files-marks', LOGS.redux)).toEqual({
      'test/a.spec.js': 'PASSED',
      'adds numbers': 'PASSED',
      'test/b.spec.js': 'FAILED',
      'breaks here': 'FAILED',
    });
  });
  test('redux jest: a title both passing and failing gives nothing (the reference raises)', () => {
    expect(parseLog('msb-jest-files-marks', '✓ same (1 ms)\n1) same\n')).toEqual({});
  });
  test('dayjs jest: a test line before any file line gives nothing (the reference raises)', () => {
    expect(parseLog('msb-jest-suite', LOGS.jest_nosuite)).toEqual({});
  });
  test('axios mocha: bare titles; the failure list adds its suite line', () => {
    expect(parseLog('msb-mocha-spec', LOGS.mocha)).toEqual({
      'sends a request': 'PASSED',
      exports: 'PASSED',
      'handles errors': 'FAILED',
      axios: 'FAILED',
    });
  });
  test('jackson surefire: per class; one skipped method of five still PASSED, all skipped SKIPPED', () => {
    expect(parseLog('msb-maven-class', LOGS.maven)).toEqual({
      'com.x.ATest': 'PASSED',
      'com.x.BTest': 'FAILED',
      'com.x.CTest': 'SKIPPED',
    });
  });
  test('gson: the newer "s - in" surefire lines are not read', () => {
    expect(parseLog('msb-gson', LOGS.maven)).toEqual({});
  });
  test('gson: "Running X" + old "sec" summary, <<< FAILURE! fails the class', () => {
    expect(parseLog('msb-gson', LOGS.gson)).toEqual({
      'com.google.gson.ATest': 'PASSED',
      'com.google.gson.BTest': 'FAILED',
    });
  });
  test('gradle (kotlin group): "Class > method" ids and tasks; a name without status is not read', () => {
    expect(parseLog('msb-gradle', LOGS.gradle)).toEqual({
      'com.x.ATest > adds': 'PASSED',
      'com.x.ATest > breaks': 'FAILED',
      test: 'FAILED',
      'com.x.ATest > ignored': 'SKIPPED',
    });
  });
});

describe('Multi-SWE-bench parsers: go, cargo, ctest, automake, mixed groups', () => {
  test('go: a failure is not overridden by a later pass; FAIL <pkg> lines are failures', () => {
    expect(parseLog('msb-go', LOGS.dup_go)).toEqual({
      'TestB/sub': 'PASSED',
      'TestB/other': 'FAILED',
      'github.com/x/y': 'FAILED',
      TestA: 'FAILED',
    });
  });
  test('go (grpc group): parent collapse makes this log overlap, so nothing (the reference raises)', () => {
    expect(parseLog('msb-go-parent', LOGS.dup_go)).toEqual({});
  });
  test('cargo: a test both FAILED and ok gives nothing (the reference raises)', () => {
    expect(parseLog('msb-cargo', LOGS.dup_cargo)).toEqual({});
  });
  test('ctest (fmt group): "***Failed" with a time after it is not read', () => {
    expect(parseLog('msb-ctest', LOGS.ctest)).toEqual({ 'args-test': 'PASSED', 'os-test': 'FAILED' });
  });
  test('ctest (OpenBLAS group): "***Failed  0.20 sec" is read', () => {
    expect(parseLog('msb-ctest-open', LOGS.ctest)).toEqual({
      'args-test': 'PASSED',
      'os-test': 'FAILED',
      'format-test': 'FAILED',
    });
  });
  test('jq: automake PASS/FAIL/SKIP', () => {
    expect(parseLog('msb-automake', LOGS.automake)).toEqual({
      'tests/jqtest': 'PASSED',
      'tests/shtest': 'FAILED',
      'tests/utf8test': 'SKIPPED',
    });
  });
  test('zstd PRs 1230-1748: one "all tests" result from the POOL keyword', () => {
    expect(parseLog('msb-zstd-pool', `${LOGS.automake}PASS: all POOL tests\n`)).toEqual({
      'all tests': 'PASSED',
    });
    expect(parseLog('msb-zstd-pool', LOGS.automake)).toEqual({ 'all tests': 'FAILED' });
  });
});

describe('Multi-SWE-bench parsers: grommet, express, mruby', () => {
  test('grommet group: marks anywhere in a line, "PASS x (" keeps the space, failures never overridden', () => {
    const log =
      'PASS src/a.test.js (3 s)\n  \x1b[32m✓\x1b[0m renders (12 ms)\n  × breaks (1 ms)\nFAIL src/b.test.js\n  1) mocha thing\n  ✓ breaks\nSKIP: x\n';
    expect(parseLog('msb-js-marks', log)).toEqual({
      renders: 'PASSED',
      'src/a.test.js ': 'PASSED',
      breaks: 'FAILED',
      'mocha thing': 'FAILED',
      'src/b.test.js': 'FAILED',
      x: 'SKIPPED',
    });
  });
  test('express mocha JSON: fullTitle ids; any other JSON object in the log gives nothing (the reference raises)', () => {
    const report = (extra: string) =>
      `${extra}{"stats":{"suites":1,"tests":2,"passes":1,"pending":0,"failures":1,"start":"x","end":"y","duration":3},` +
      '"tests":[],"pending":[],"failures":[{"title":"b","fullTitle":"S b","currentRetry":0,"err":{}}],' +
      '"passes":[{"title":"a","fullTitle":"S a","currentRetry":0,"err":{}},{"title":"b","fullTitle":"S b","currentRetry":0,"err":{}}]}\n';
    expect(parseLog('msb-mocha-json', report('=====\nWriting x\n'))).toEqual({
      'S a': 'PASSED',
      'S b': 'FAILED',
    });
    expect(parseLog('msb-mocha-json', report('{"a": 1}\n'))).toEqual({});
  });
  describe('mruby: the rule depends on the pull request', () => {
    const mrbtest =
      'mrbtest - Embeddable Ruby Test\n\nArray#each : .\nModule#define_method [15.2.2.4.15] : .\n  Foo::bar : F\n' +
      '\tTab name\t:\t.\nKernel#p : .\nnot a test : ..\nx:F\n  Total: 5\n     OK: 4\n     KO: 1\n  Total: 100\n     OK: 100\n';
    test('from PR 4933: verbose mrbtest lines, and build passed with exactly two OK summaries', () => {
      expect(parseLog('msb-mruby', mrbtest)).toEqual({
        'Array#each': 'PASSED',
        'Foo::bar': 'FAILED',
        'Kernel#p': 'PASSED',
        'Module#define_method [15.2.2.4.15]': 'PASSED',
        'Tab name': 'PASSED',
        build: 'PASSED',
        x: 'FAILED',
      });
      expect(parseLog('msb-mruby', 'A : .\nB : F\n  Total: 2\n     OK: 1\n')).toEqual({
        A: 'PASSED',
        B: 'FAILED',
        build: 'FAILED',
      });
      expect(parseLog('msb-mruby', 'A : .\n\u00a0OK:\u00a0x\n OK:\n')).toEqual({
        A: 'PASSED',
        build: 'PASSED',
      });
      // A test both passed and failed: the reference raises.
      expect(parseLog('msb-mruby', 'Kernel#p : F\nKernel#p : .\n')).toEqual({});
    });
    test('PRs 2784–4932: two KO summaries, both 0, one regression #1564 forgiven', () => {
      const ko = (log: string) => parseLog('msb-mruby-ko', log);
      expect(ko('  Total: 3\n     OK: 3\n     KO: 0\n  Total: 1\n     OK: 1\n     KO: 0\n')).toEqual({
        'all tests': 'PASSED',
        build: 'PASSED',
      });
      expect(ko('     KO: 1\nFail: regression for #1564\n     KO: 1\n')).toEqual({
        'all tests': 'FAILED',
        build: 'PASSED',
      });
      expect(ko('     KO: 0\nFail: regression for #1564\n     KO: \u0661\n')).toEqual({
        'all tests': 'PASSED',
        build: 'PASSED',
      });
      expect(ko('     KO: 0\nFail: regression for #1564\n')).toEqual({});
      expect(ko('     KO: 0\n     KO: 0\n     KO: 0\n')).toEqual({ 'all tests': 'FAILED', build: 'FAILED' });
    });
    test('before PR 2784: the first Total and OK equal and not 0', () => {
      const total = (log: string) => parseLog('msb-mruby-total', log)['all tests'];
      expect(total('  Total: 12\n     OK: 12\n')).toBe('PASSED');
      expect(total('  Total: 0\n     OK: 0\n')).toBe('FAILED');
      expect(total('  Total: 12\n     OK: 11\n  Total: 1\n')).toBe('FAILED');
      expect(total('  Total:\u0663\n OK: \u0663\n')).toBe('PASSED');
    });
  });
});
