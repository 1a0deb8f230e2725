import { expect, test } from 'bun:test';
import { runQuiet } from './proc.ts';

test('a chatty command prints nothing but a rare status line, and hands back its last lines', async () => {
  const logged: string[] = [];
  const r = await runQuiet(['sh', '-c', 'for i in $(seq 1 120); do echo "Unpacking pkg$i"; done; exit 3'], {
    log: (l) => logged.push(l),
    everyMs: 60_000,
  });
  expect(r.code).toBe(3);
  expect(r.lines).toBe(120);
  expect(r.tail).toHaveLength(25);
  expect(r.tail.at(-1)).toBe('Unpacking pkg120');
  expect(logged).toEqual([]);
  const often = await runQuiet(['sh', '-c', 'echo a; sleep 0.05; echo b 1>&2'], {
    log: (l) => logged.push(l),
    everyMs: 10,
  });
  expect(often.code).toBe(0);
  expect(logged).toEqual(['  … b']);
});
