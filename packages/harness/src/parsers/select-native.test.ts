import { describe, expect, test } from 'bun:test';
import { MSB } from '../benchmarks/msb.ts';
import { prNumber } from '../benchmarks/row-grading.ts';
import { SWEBENCH } from '../benchmarks/swebench.ts';
import { MSB_PARSERS, SWEBENCH_PARSERS } from './select.ts';

describe('reference parser choice (non-Python repositories)', () => {
  test('the source decides: the same repository reads differently for SWE-bench and Multi-SWE-bench', () => {
    expect(SWEBENCH.referenceParser('google/gson', null)).toBe('swebench-maven');
    expect(MSB.referenceParser('google/gson', null)).toBe('msb-gson');
    expect(SWEBENCH.referenceParser('axios/axios', null)).toBe('swebench-tap');
    expect(MSB.referenceParser('axios/axios', null)).toBe('msb-mocha-spec');
    expect(MSB.referenceParser('iamkun/dayjs', null)).toBe('msb-jest-suite');
    expect(MSB.referenceParser('fasterxml/jackson-databind', null)).toBe('msb-maven-class');
    expect(MSB.referenceParser('nobody/nothing', null)).toBeNull();
  });
  test('pull-request ranges: zstd keyword rules, the three mruby rules, express spec-reporter PRs', () => {
    expect(MSB.referenceParser('facebook/zstd', 1300)).toBe('msb-zstd-pool');
    expect(MSB.referenceParser('facebook/zstd', 2000)).toBe('msb-zstd-decoder');
    expect(MSB.referenceParser('facebook/zstd', 3000)).toBe('msb-automake');
    expect(MSB.referenceParser('mruby/mruby', 6884)).toBe('msb-mruby');
    expect(MSB.referenceParser('mruby/mruby', 4932)).toBe('msb-mruby-ko');
    expect(MSB.referenceParser('mruby/mruby', 2783)).toBe('msb-mruby-total');
    expect(MSB.referenceParser('expressjs/express', 4852)).toBe('msb-mocha-spec');
    expect(MSB.referenceParser('expressjs/express', 4853)).toBe('msb-mocha-json');
    expect(SWEBENCH.referenceParser('facebook/zstd', 1300)).toBeNull();
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
    expect(SWEBENCH.referenceParser('BurntSushi/ripgrep', null)).toBe(
      SWEBENCH.referenceParser('burntsushi/ripgrep', null),
    );
    expect(SWEBENCH.referenceParser('BurntSushi/ripgrep', null)).not.toBeNull();
  });
  test('a PR inside a Multi-SWE-bench range gets its range parser', () => {
    expect(MSB.referenceParser('facebook/zstd', 1300)).toBe('msb-zstd-pool');
    expect(prNumber('facebook/zstd:pr-1300')).toBe(1300);
    expect(prNumber('django__django-11099')).toBe(11099);
  });
});
