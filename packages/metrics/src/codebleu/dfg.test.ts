/** The walk's `states`: copies that share layers behave like independent dict copies. */
import { expect, test } from 'bun:test';
import { mulberry32 } from '../bootstrap.ts';
import { States } from './dfg.ts';

test('States: random copies and writes read like independent maps (layers shared, flattened past 8)', () => {
  const rand = mulberry32(7);
  const states: States[] = [new States()];
  const models: Map<string, number[]>[] = [new Map()];
  const keys = Array.from({ length: 12 }, (_, i) => `v${i}`);
  for (let step = 0; step < 5000; step++) {
    const i = Math.floor(rand() * states.length);
    const s = states[i] as States;
    const m = models[i] as Map<string, number[]>;
    if (rand() < 0.3 && states.length < 200) {
      states.push(s.copy());
      models.push(new Map(m));
    } else {
      const k = keys[Math.floor(rand() * keys.length)] as string;
      const v = [step];
      s.set(k, v);
      m.set(k, v);
    }
    // every States still reads as its model
    const j = Math.floor(rand() * states.length);
    for (const k of keys)
      expect((states[j] as States).get(k)).toBe((models[j] as Map<string, number[]>).get(k));
    expect(new Map((states[j] as States).entries())).toEqual(models[j] as Map<string, number[]>);
  }
  // copies that nobody wrote share their layers
  const a = new States();
  a.set('x', [1]);
  const b = a.copy();
  expect(b.sharesMap(a)).toBe(true);
  b.set('y', [2]);
  expect(b.sharesMap(a)).toBe(false);
  expect(a.get('y')).toBeUndefined();
});
