import { expect, test } from 'bun:test';
import { porterStem } from './porter.ts';

test('nltk PorterStemmer (NLTK_EXTENSIONS) behaviours named in the spec', () => {
  expect(porterStem('dying')).toBe('die');
  expect(porterStem('quickly')).toBe('quickli');
  expect(porterStem('was')).toBe('wa');
});

test('classic Porter examples', () => {
  const cases: Record<string, string> = {
    caresses: 'caress',
    ponies: 'poni',
    ties: 'tie', // NLTK extension: 4-letter -ies → -ie
    caress: 'caress',
    cats: 'cat',
    feed: 'feed',
    agreed: 'agre',
    plastered: 'plaster',
    motoring: 'motor',
    sing: 'sing',
    hopping: 'hop',
    falling: 'fall',
    happy: 'happi',
    sky: 'sky',
    skies: 'sky',
    relational: 'relat',
    hopeful: 'hope',
    goodness: 'good',
    adjustment: 'adjust',
    controll: 'control',
    roll: 'roll',
    generously: 'gener',
    generous: 'gener',
  };
  for (const [w, s] of Object.entries(cases)) expect(`${w} → ${porterStem(w)}`).toBe(`${w} → ${s}`);
});
