/** People, bots and prose of the fake corpus. */
import type { FakeUser } from './corpus-types.ts';
import { fnv1a, type Rng } from './rng.ts';

const FIRST = [
  'ada',
  'grace',
  'linus',
  'margaret',
  'ken',
  'barbara',
  'dennis',
  'frances',
  'john',
  'edsger',
  'alan',
  'donald',
  'radia',
  'sophie',
  'guido',
  'anders',
  'yuki',
  'priya',
  'omar',
  'lena',
];
const LAST = [
  'lovelace',
  'hopper',
  'hamilton',
  'thompson',
  'liskov',
  'ritchie',
  'allen',
  'backus',
  'dijkstra',
  'kay',
  'knuth',
  'perlman',
  'wilson',
  'rossum',
  'hejlsberg',
  'tanaka',
  'patel',
  'haddad',
  'berg',
  'novak',
];

/** A human account from a pool of 400 (no bot-like names). */
export function human(rng: Rng): FakeUser {
  const login = `${rng.pick(FIRST)}-${rng.pick(LAST)}`;
  return { login, id: 10_000 + (fnv1a(login) % 9_000_000), type: 'User' };
}

/** A human different from `not`. */
export function otherHuman(rng: Rng, not: FakeUser | null): FakeUser {
  for (;;) {
    const u = human(rng);
    if (u.login !== not?.login) return u;
  }
}

const BOTS = ['dependabot[bot]', 'renovate[bot]', 'github-actions[bot]', 'stale[bot]'];
/** A GitHub App account (`[bot]` login, type Bot). */
export function bot(rng: Rng): FakeUser {
  const login = rng.pick(BOTS);
  return { login, id: 49_000_000 + (fnv1a(login) % 1000), type: 'Bot' };
}

const MACHINE = ['k8s-ci-robot', 'codecov-io', 'facebook-github-bot'];
/** A machine user: a bot by name, but REST type `User` (fillers only). */
export function machineUser(rng: Rng): FakeUser {
  const login = rng.pick(MACHINE);
  return { login, id: 60_000_000 + (fnv1a(login) % 1000), type: 'User' };
}

export const ASSOCIATIONS = [
  'OWNER',
  'MEMBER',
  'CONTRIBUTOR',
  'NONE',
  'COLLABORATOR',
  'FIRST_TIME_CONTRIBUTOR',
];

const SUBJECTS = [
  'the parser',
  'the cache',
  'the scheduler',
  'the exporter',
  'the config loader',
  'the CLI',
  'the retry logic',
  'the formatter',
];
const VERBS = ['returns', 'drops', 'duplicates', 'ignores', 'miscounts', 'truncates', 'reorders', 'rejects'];
const OBJECTS = [
  'negative offsets',
  'empty inputs',
  'the last element',
  'unicode names',
  'large widths',
  'nested values',
  'default options',
  'zero weights',
];

/** One plain sentence (no links, no references). */
export function sentence(rng: Rng): string {
  return `When I call it with ${rng.pick(OBJECTS)}, ${rng.pick(SUBJECTS)} ${rng.pick(VERBS)} ${rng.pick(OBJECTS)} instead of the expected result.`;
}

/** Prose of at least `min` characters (and below `min` + 120). */
export function prose(rng: Rng, min: number): string {
  const parts: string[] = [];
  let len = 0;
  while (len < min) {
    const s = sentence(rng);
    parts.push(s);
    len += s.length + 1;
  }
  return parts.join(' ');
}

/** A short body: under 150 characters. */
export function shortText(rng: Rng): string {
  return rng.pick([
    'Broken again.',
    'It crashes on empty input, please fix.',
    'Wrong result for zero weights.',
    'Same as before, still failing.',
  ]);
}

export function issueTitle(rng: Rng, fn: string): string {
  return `${fn} ${rng.pick(VERBS)} ${rng.pick(OBJECTS)}`;
}
