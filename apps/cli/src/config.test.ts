import { expect, test } from 'bun:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type OptionSpec, UsageError } from '@faun/kit';
import { envName, loadConfig, resolveOptions } from './config.ts';

const specs: OptionSpec[] = [
  { name: 'concurrency', type: 'number', description: '', default: 4 },
  { name: 'log-dir', type: 'string', description: '', default: 'logs' },
  { name: 'quiet', type: 'boolean', description: '', default: false },
  { name: 'tasks', type: 'list', description: '', choices: ['qa', 'fl', 'ce'] },
  { name: 'task', type: 'string', description: '', choices: ['qa', 'fl', 'ce'] },
];

test('precedence: flag > env > config (command section > top level) > default', () => {
  const config = { concurrency: 2, 'log-dir': 'cfg-logs', quiet: true, crawl: { concurrency: 3 } };
  const env = { FAUN_CONCURRENCY: '5', FAUN_LOG_DIR: 'env-logs' };
  const flagWins = resolveOptions('crawl', specs, { concurrency: '9' }, config, env);
  expect(flagWins.values.concurrency).toBe(9);
  expect(flagWins.sources.concurrency).toBe('flag');
  expect(flagWins.values.logDir).toBe('env-logs');
  expect(flagWins.sources.logDir).toBe('env');
  expect(flagWins.values.quiet).toBe(true);
  expect(flagWins.sources.quiet).toBe('config');
  const noEnv = resolveOptions('crawl', specs, {}, config, {});
  expect(noEnv.values.concurrency).toBe(3); // the command's own section wins over the top level
  const otherCommand = resolveOptions('score', specs, {}, config, {});
  expect(otherCommand.values.concurrency).toBe(2);
  const defaults = resolveOptions('score', specs, {}, {}, {});
  expect(defaults.values).toEqual({
    concurrency: 4,
    logDir: 'logs',
    quiet: false,
    tasks: undefined,
    task: undefined,
  });
  expect(defaults.sources.concurrency).toBe('default');
});

test('env names are FAUN_<FLAG>', () => {
  expect(envName('log-dir')).toBe('FAUN_LOG_DIR');
  expect(envName('max-retries')).toBe('FAUN_MAX_RETRIES');
});

test('lists split on commas and accumulate; choices get "did you mean"', () => {
  const r = resolveOptions('build', specs, { tasks: ['qa,fl', 'ce'] }, {}, {});
  expect(r.values.tasks).toEqual(['qa', 'fl', 'ce']);
  expect(() => resolveOptions('score', specs, { task: 'fk' }, {}, {})).toThrow(/Did you mean 'fl'/);
  expect(() => resolveOptions('score', specs, { concurrency: 'many' }, {}, {})).toThrow(UsageError);
  expect(() => resolveOptions('score', specs, {}, {}, { FAUN_QUIET: 'perhaps' })).toThrow(/FAUN_QUIET/);
});

test('config file: explicit path, errors name the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'faun-cfg-'));
  const good = join(dir, 'good.json');
  writeFileSync(good, '{"concurrency": 7}');
  expect(loadConfig(good, {})).toEqual({ concurrency: 7 });
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, '{"concurrency": ');
  expect(() => loadConfig(bad, {})).toThrow(bad);
  expect(() => loadConfig(join(dir, 'none.json'), {})).toThrow(/not found/);
  expect(loadConfig(undefined, { FAUN_CONFIG: good })).toEqual({ concurrency: 7 });
});

test('FAUN_<COMMAND>_<OPTION> applies to one command and wins over FAUN_<OPTION>', () => {
  const env = { FAUN_CONCURRENCY: '5', FAUN_CRAWL_CONCURRENCY: '8' };
  expect(resolveOptions('crawl', specs, {}, {}, env).values.concurrency).toBe(8);
  expect(resolveOptions('score', specs, {}, {}, env).values.concurrency).toBe(5);
  expect(envName('log-dir', 'score-pairs')).toBe('FAUN_SCORE_PAIRS_LOG_DIR');
});
