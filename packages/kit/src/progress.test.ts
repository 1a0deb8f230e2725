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
});

test('plain progress lines carry the rate', async () => {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (d) => {
    text += String(d);
  });
  const p = createProgress({ label: 'x', total: 4, plain: true, plainEveryMs: 0, stream });
  await Bun.sleep(5); // some time passes, so there is a rate to show
  p.tick(2);
  p.done('ok');
  expect(text).toMatch(/^x: 2\/4 \(50\.0%\) [\d.]+s/m);
  expect(text.trim().split('\n').at(-1)).toMatch(/^x: 2\/4 \(50\.0%\) [\d.]+s [\d.]+\/s ETA \S+ ok$/);
});
