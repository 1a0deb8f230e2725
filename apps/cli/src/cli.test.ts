import { expect, test } from 'bun:test';
import { join } from 'node:path';
import { FAUN_VERSION } from '@faun/kit';
import { run } from '@faun/services';
import { REGISTRY } from './registry.ts';

const MAIN = join(import.meta.dir, 'main.ts');

const faun = (args: string[], env: Record<string, string> = {}) => run(['bun', MAIN, ...args], { env });

const ALL = [
  'crawl',
  'curate',
  'build',
  'stats',
  'predict',
  'score',
  'score-pairs',
  'verify',
  'validate',
  'instances',
  'report',
  'serve',
  'worker',
  'fake-github',
  'demo',
];

test('--help lists every subcommand, with examples and the option precedence', async () => {
  const r = await faun(['--help']);
  expect(r.code).toBe(0);
  for (const name of ALL) expect(r.stdout).toMatch(new RegExp(`^\\s+${name}\\b`, 'm'));
  expect(r.stdout).toContain('Examples:');
  expect(r.stdout).toContain('flag > environment > config file > default');
  expect(REGISTRY.map((e) => e.name).sort()).toEqual([...ALL].sort());
});

test('--version prints the workspace version', async () => {
  const r = await faun(['--version']);
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toBe(FAUN_VERSION);
});

test('every registered command loads from its package and has help with the common flags', async () => {
  for (const entry of REGISTRY) {
    const spec = await entry.load();
    expect(spec.name).toBe(entry.name);
  }
  const r = await faun(['score', '--help']);
  expect(r.code).toBe(0);
  for (const flag of ['--log-dir', '--json', '--quiet', '--config', '--limit'])
    expect(r.stdout).toContain(flag);
}, 60_000);

test('an unknown command exits 2 with "did you mean"', async () => {
  const r = await faun(['crwal']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("unknown command 'crwal'");
  expect(r.stderr).toContain("Did you mean 'crawl'?");
});

test('an unknown option exits 2 with a suggestion', async () => {
  const r = await faun(['stats', '--jsno']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("unknown option '--jsno'");
  expect(r.stderr).toContain('--json');
});

test('a bad environment value is a usage error (exit 2) naming the variable', async () => {
  const r = await faun(['demo'], { FAUN_DEMO_REPOS: 'lots' });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('FAUN_DEMO_REPOS');
});

test('flags after a nested subcommand reach it, even when the parent declares them too', async () => {
  const db = join(
    await import('node:os').then((os) => os.tmpdir()),
    `faun-keys-${process.pid}-${Date.now()}`,
  );
  const r = await faun(['serve', 'keys', 'create', '--db', db, '--name', 'ci', '--json']);
  expect(r.code).toBe(0);
  const created = JSON.parse(r.stdout) as { id: string; token: string };
  expect(created.token).toStartWith(`faun_${created.id}_`);
  const list = await faun(['serve', 'keys', 'list', '--db', db, '--json']);
  expect(list.code).toBe(0);
  expect(list.stdout).toContain(created.id);
  expect(list.stdout).toContain('"ci"');
  expect(list.stdout).not.toContain(created.token); // only the hash is stored
}, 60_000);

test('a mistyped command is a usage error with a suggestion, even with --help or after `help`', async () => {
  for (const args of [
    ['predit', '--help'],
    ['help', 'predit'],
  ]) {
    const r = await faun(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown command 'predit'");
    expect(r.stderr).toContain("Did you mean 'predict'");
  }
});

test('a mistyped subcommand gets a suggestion', async () => {
  const r = await faun(['serve', 'keys', 'creat']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("'creat' is not a subcommand of 'keys'");
  expect(r.stderr).toContain("Did you mean 'create'");
});

test('--limit and --concurrency exist only where they mean something', async () => {
  const stats = await faun(['stats', '--limit', '3']);
  expect(stats.code).toBe(2);
  expect(stats.stderr).toContain("unknown option '--limit'");
  const help = await faun(['score', '--help']);
  expect(help.stdout).toContain('--limit');
});

test('help piped into a reader that closes early ends quietly', async () => {
  const { stdout, stderr, code } = await run(['bash', '-c', `bun ${MAIN} serve --help | head -1`]);
  expect(code).toBe(0);
  expect(stdout.trim()).toStartWith('Usage: faun serve');
  expect(stderr).not.toContain('EPIPE');
});
