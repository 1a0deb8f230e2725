import { expect, test } from 'bun:test';
import { PassThrough } from 'node:stream';
import { createProgress, formatDuration, progressText } from './progress.ts';

test('progress text: count/total, elapsed, rate and ETA; no "N/0 100%" without a total', () => {
  expect(progressText(250, 1000, 5)).toBe('250/1000 (25.0%) 5.0s 50.0/s ETA 15s');
  expect(progressText(30633, 0, 2)).toBe('30633 2.0s 15317/s');
  expect(progressText(0, 10, 0, 'starting')).toBe('0/10 (0.0%) 0.0s starting');
  expect(progressText(10, 10, 4)).toBe('10/10 (100.0%) 4.0s 2.50/s');
  expect(formatDuration(59.6)).toBe('1m00s');
  expect(formatDuration(3725)).toBe('1h02m');
  // the ETA comes from the rate after the first report: 1 pair took 2.5 s of start-up, 999 more 2 s
  expect(progressText(1, 3600, 2.5, '', { value: 1, elapsedS: 2.5 })).toBe('1/3600 (0.0%) 2.5s 0.40/s');
  expect(progressText(1000, 3600, 4.5, '', { value: 1, elapsedS: 2.5 })).toBe(
    '1000/3600 (27.8%) 4.5s 222/s ETA 5s',
  );
});

test('plain progress lines carry the rate', async () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => {
    text += String(d);
  });
  const p = createProgress({ label: 'x', total: 4, plain: true, plainEveryMs: 0, stream });
  await Bun.sleep(5); // some time passes, so there is a rate to show
  p.tick(1);
  await Bun.sleep(5);
  p.tick(1);
  p.done('ok');
  const lines = text.trim().split('\n');
  // the first report has no ETA (its rate includes the start-up); the next ones do
  expect(lines[0]).toMatch(/^x: 1\/4 \(25\.0%\) [\d.]+s [\d.]+\/s$/);
  expect(lines.at(-1)).toMatch(/^x: 2\/4 \(50\.0%\) [\d.]+s [\d.]+\/s ETA \S+ ok$/);
});

test('the closing line is not a copy of the last one', () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => {
    text += String(d);
  });
  const p = createProgress({ label: 'verify', total: 2, plain: true, plainEveryMs: 0, stream });
  p.tick(1, 'a: resolved');
  p.tick(1, 'b: resolved');
  p.done();
  expect(text.trim().split('\n')).toHaveLength(2);
  const q = createProgress({ label: 'y', total: 2, plain: true, plainEveryMs: 60_000, stream });
  text = '';
  q.tick(1);
  q.tick(1); // within plainEveryMs: not printed, so the closing line shows it
  q.done();
  expect(
    text
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[1]),
  ).toEqual(['1/2', '2/2']);
});
