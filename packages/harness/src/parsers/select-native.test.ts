import { describe, expect, test } from 'bun:test';
import { prNumber } from '../grading/row-grading.ts';
import { MSB_PARSERS, referenceParser, referenceParserForPr, SWEBENCH_PARSERS } from './select.ts';

describe('reference parser choice (non-Python repositories)', () => {
  test('the source decides: the same repository reads differently for SWE-bench and Multi-SWE-bench', () => {
    expect(referenceParser('swebench', 'google/gson')).toBe('swebench-maven');
    expect(referenceParser('multi-swe-bench', 'google/gson')).toBe('msb-gson');
    expect(referenceParser('swebench', 'axios/axios')).toBe('swebench-tap');
    expect(referenceParser('multi-swe-bench', 'axios/axios')).toBe('msb-mocha-spec');
    expect(referenceParser('multi-swe-bench', 'iamkun/dayjs')).toBe('msb-jest-suite');
    expect(referenceParser('multi-swe-bench', 'fasterxml/jackson-databind')).toBe('msb-maven-class');
    expect(referenceParser('multi-swe-bench', 'nobody/nothing')).toBeNull();
  });
  test('pull-request ranges: zstd keyword rules, the three mruby rules, express spec-reporter PRs', () => {
    expect(referenceParserForPr('multi-swe-bench', 'facebook/zstd', 1300)).toBe('msb-zstd-pool');
    expect(referenceParserForPr('multi-swe-bench', 'facebook/zstd', 2000)).toBe('msb-zstd-decoder');
    expect(referenceParserForPr('multi-swe-bench', 'facebook/zstd', 3000)).toBe('msb-automake');
    expect(referenceParserForPr('multi-swe-bench', 'mruby/mruby', 6884)).toBe('msb-mruby');
    expect(referenceParserForPr('multi-swe-bench', 'mruby/mruby', 4932)).toBe('msb-mruby-ko');
    expect(referenceParserForPr('multi-swe-bench', 'mruby/mruby', 2783)).toBe('msb-mruby-total');
    expect(referenceParserForPr('multi-swe-bench', 'expressjs/express', 4852)).toBe('msb-mocha-spec');
    expect(referenceParserForPr('multi-swe-bench', 'expressjs/express', 4853)).toBe('msb-mocha-json');
    expect(referenceParserForPr('swebench', 'facebook/zstd', 1300)).toBeNull();
  });
  test('the named repositories are covered', () => {
    for (const r of [
      'iamkun/dayjs',
      'axios/axios',
      'expressjs/express',
      'anuraghazra/github-readme-stats',
      'fasterxml/jackson-core',
      'fasterxml/jackson-databind',
      'google/gson',
      'gin-gonic/gin',
      'BurntSushi/ripgrep',
      'facebook/zstd',
      'jqlang/jq',
      'fmtlib/fmt',
      'nlohmann/json',
      'simdjson/simdjson',
    ])
      expect(Object.hasOwn(MSB_PARSERS, r)).toBe(true);
    expect(Object.keys(MSB_PARSERS).length).toBeGreaterThanOrEqual(89);
    expect(SWEBENCH_PARSERS['google/gson']).toBe('swebench-maven');
    expect(SWEBENCH_PARSERS['django/django']).toBe('django');
  });
});

describe('reference parser lookup', () => {
  test('repository names match whatever their case', () => {
    expect(referenceParser('swebench', 'BurntSushi/ripgrep')).toBe(
      referenceParser('swebench', 'burntsushi/ripgrep'),
    );
    expect(referenceParser('swebench', 'BurntSushi/ripgrep')).not.toBeNull();
  });
  test('a PR inside a Multi-SWE-bench range gets its range parser', () => {
    expect(referenceParserForPr('multi-swe-bench', 'facebook/zstd', 1300)).toBe('msb-zstd-pool');
    expect(prNumber('facebook/zstd:pr-1300')).toBe(1300);
    expect(prNumber('django__django-11099')).toBe(11099);
  });
});
