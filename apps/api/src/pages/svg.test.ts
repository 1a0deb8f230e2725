import { expect, test } from 'bun:test';
import { esc, h } from './h.ts';
import { barChart, histogramBins, niceAxis } from './svg.ts';

test('niceAxis picks 1-2-5 steps covering the maximum', () => {
  expect(niceAxis(1)).toEqual({ max: 1, step: 0.25 });
  expect(niceAxis(10, true)).toEqual({ max: 10, step: 5 });
  expect(niceAxis(7, true)).toEqual({ max: 8, step: 2 });
  expect(niceAxis(3, true)).toEqual({ max: 3, step: 1 });
  expect(niceAxis(430)).toEqual({ max: 600, step: 200 });
  expect(niceAxis(0)).toEqual({ max: 1, step: 0.25 });
});

test('markup is escaped; charts carry one bar per row and whiskers for intervals', () => {
  expect(esc('<a href="x">&\'')).toBe('&lt;a href=&quot;x&quot;&gt;&amp;&#39;');
  expect(h`<td>${'<script>'}</td>`.html).toBe('<td>&lt;script&gt;</td>');
  const svg = barChart(
    [
      { label: 'a<b', value: 0.5, lo: 0.4, hi: 0.6 },
      { label: 'c', value: 0.2 },
    ],
    { title: 't', max: 1 },
  ).html;
  expect(svg.match(/<rect /g)?.length).toBe(2);
  expect(svg.match(/<line /g)?.length).toBe(5 + 3); // 5 grid lines + one whisker of 3 lines
  expect(svg).toContain('a&lt;b');
  expect(svg).not.toContain('a<b');
});

test('histogram bins: ten over [0, 1], the last one closed', () => {
  const bins = histogramBins([0, 0.05, 0.1, 0.55, 0.99, 1, Number.NaN]);
  expect(bins.map((b) => b.value)).toEqual([2, 1, 0, 0, 0, 1, 0, 0, 0, 2]);
  expect(bins.map((b) => b.label)[9]).toBe('0.9');
});
