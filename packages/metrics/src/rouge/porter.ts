/**
 * nltk's `PorterStemmer()` in its default NLTK_EXTENSIONS mode (nltk 3.8 `porter.py`), ported rule for
 * rule: `dying`→`die`, `quickly`→`quickli`, `was`→`wa`. Differs from the original-Porter npm packages.
 * @module
 */

const IRREGULAR: Record<string, string[]> = {
  sky: ['sky', 'skies'],
  die: ['dying'],
  lie: ['lying'],
  tie: ['tying'],
  news: ['news'],
  inning: ['innings', 'inning'],
  outing: ['outings', 'outing'],
  canning: ['cannings', 'canning'],
  howe: ['howe'],
  proceed: ['proceed'],
  exceed: ['exceed'],
  succeed: ['succeed'],
};
const POOL = new Map<string, string>();
for (const [k, vs] of Object.entries(IRREGULAR)) for (const v of vs) POOL.set(v, k);

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function isConsonant(word: string, i: number): boolean {
  const ch = word[i]!;
  if (VOWELS.has(ch)) return false;
  if (ch === 'y') return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

function measure(stem: string): number {
  let seq = '';
  for (let i = 0; i < stem.length; i++) seq += isConsonant(stem, i) ? 'c' : 'v';
  let n = 0;
  for (let i = 0; i + 1 < seq.length; i++) if (seq[i] === 'v' && seq[i + 1] === 'c') n++;
  return n;
}

const positive = (stem: string) => measure(stem) > 0;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  return word.length >= 2 && word.at(-1) === word.at(-2) && isConsonant(word, word.length - 1);
}

function endsCvc(word: string): boolean {
  const n = word.length;
  return (
    (n >= 3 &&
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      !['w', 'x', 'y'].includes(word[n - 1]!)) ||
    (n === 2 && !isConsonant(word, 0) && isConsonant(word, 1))
  );
}

type Rule = [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null];

function applyRules(word: string, rules: Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === '*d' && endsDoubleConsonant(word)) {
      const stem = word.slice(0, -2);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
    if (word.endsWith(suffix)) {
      const stem = suffix === '' ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith('ies') && word.length === 4) return `${word.slice(0, -3)}ie`;
  return applyRules(word, [
    ['sses', 'ss', null],
    ['ies', 'i', null],
    ['ss', 'ss', null],
    ['s', '', null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith('ied')) return word.length === 4 ? `${word.slice(0, -3)}ie` : `${word.slice(0, -3)}i`;
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let inter: string | null = null;
  for (const suffix of ['ed', 'ing']) {
    if (word.endsWith(suffix)) {
      const s = word.slice(0, -suffix.length);
      if (containsVowel(s)) {
        inter = s;
        break;
      }
    }
  }
  if (inter === null) return word;
  const last = inter.at(-1) ?? '';
  return applyRules(inter, [
    ['at', 'ate', null],
    ['bl', 'ble', null],
    ['iz', 'ize', null],
    ['*d', last, () => !['l', 's', 'z'].includes(last)],
    ['', 'e', (stem) => measure(stem) === 1 && endsCvc(stem)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [['y', 'i', (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith('alli') && positive(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  return applyRules(word, [
    ['ational', 'ate', positive],
    ['tional', 'tion', positive],
    ['enci', 'ence', positive],
    ['anci', 'ance', positive],
    ['izer', 'ize', positive],
    ['bli', 'ble', positive],
    ['alli', 'al', positive],
    ['entli', 'ent', positive],
    ['eli', 'e', positive],
    ['ousli', 'ous', positive],
    ['ization', 'ize', positive],
    ['ation', 'ate', positive],
    ['ator', 'ate', positive],
    ['alism', 'al', positive],
    ['iveness', 'ive', positive],
    ['fulness', 'ful', positive],
    ['ousness', 'ous', positive],
    ['aliti', 'al', positive],
    ['iviti', 'ive', positive],
    ['biliti', 'ble', positive],
    ['fulli', 'ful', positive],
    ['logi', 'log', () => positive(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyRules(word, [
    ['icate', 'ic', positive],
    ['ative', '', positive],
    ['alize', 'al', positive],
    ['iciti', 'ic', positive],
    ['ical', 'ic', positive],
    ['ful', '', positive],
    ['ness', '', positive],
  ]);
}

const gt1 = (stem: string) => measure(stem) > 1;

function step4(word: string): string {
  return applyRules(word, [
    ['al', '', gt1],
    ['ance', '', gt1],
    ['ence', '', gt1],
    ['er', '', gt1],
    ['ic', '', gt1],
    ['able', '', gt1],
    ['ible', '', gt1],
    ['ant', '', gt1],
    ['ement', '', gt1],
    ['ment', '', gt1],
    ['ent', '', gt1],
    ['ion', '', (stem) => measure(stem) > 1 && (stem.endsWith('s') || stem.endsWith('t'))],
    ['ou', '', gt1],
    ['ism', '', gt1],
    ['ate', '', gt1],
    ['iti', '', gt1],
    ['ous', '', gt1],
    ['ive', '', gt1],
    ['ize', '', gt1],
  ]);
}

function step5a(word: string): string {
  if (word.endsWith('e')) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1) return stem;
    if (m === 1 && !endsCvc(stem)) return stem;
  }
  return word;
}

function step5b(word: string): string {
  return applyRules(word, [['ll', 'l', () => measure(word.slice(0, -1)) > 1]]);
}

/** nltk `PorterStemmer().stem(word)` (NLTK_EXTENSIONS, `to_lowercase=True`). */
export function porterStem(word: string): string {
  let stem = word.toLowerCase();
  if (POOL.has(word)) return POOL.get(stem) ?? stem;
  if (word.length <= 2) return stem;
  stem = step1a(stem);
  stem = step1b(stem);
  stem = step1c(stem);
  stem = step2(stem);
  stem = step3(stem);
  stem = step4(stem);
  stem = step5a(stem);
  stem = step5b(stem);
  return stem;
}
