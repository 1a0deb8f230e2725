/**
 * Bot detection: REST `type: Bot`, GraphQL `__typename: Bot`, `[bot]` logins, and "machine users" of
 * type `User` matched by a configurable pattern (seeded from cncf/devstats' exclude list) minus an
 * allowlist of humans whose login merely contains "bot".
 * @module
 */
import type { Actor } from '@faun/schema';

/** Seed pattern for machine users that GitHub reports as ordinary users. */
export const DEFAULT_BOT_PATTERN =
  /\[bot\]$|(^|[-_])(bot|robot)$|^(bot|robot)[-_]|^k8s-(ci|triage)-robot$|-ci$|^jenkins-|codecov|cla-?bot|claassistant|^(dependabot|renovate|stale|github-actions|mergify|netlify|vercel|coveralls|googlebot|facebook-github-bot|pytorchbot|web-flow|asfgit|prowbot|istio-testing)$/i;

export interface BotConfig {
  /** Logins matching this are bots (default {@link DEFAULT_BOT_PATTERN}). */
  pattern: RegExp;
  /** Extra machine-user logins (case-insensitive). */
  logins: string[];
  /** Humans whose login matches the pattern anyway (case-insensitive). */
  allow: string[];
}

export const DEFAULT_BOT_CONFIG: BotConfig = { pattern: DEFAULT_BOT_PATTERN, logins: [], allow: [] };

/** Login used for deleted accounts (`user: null`); counted as a human whose identity is unknown. */
export const GHOST = 'ghost';

/** True when the actor is a bot or a machine user. A null actor (deleted account) is not a bot. */
export function isBot(actor: Actor | null | undefined, cfg: BotConfig = DEFAULT_BOT_CONFIG): boolean {
  if (!actor) return false;
  const login = actor.login.toLowerCase();
  if (cfg.allow.some((a) => a.toLowerCase() === login)) return false;
  if (actor.type.toLowerCase() === 'bot') return true;
  if (cfg.logins.some((l) => l.toLowerCase() === login)) return true;
  return cfg.pattern.test(actor.login);
}

/** The login to count for an actor: `ghost` for deleted accounts. */
export function loginOf(actor: Actor | null | undefined): string {
  return actor ? actor.login.toLowerCase() : GHOST;
}

/**
 * Distinct human logins over the issue author and the commenters, bots and deleted accounts removed:
 * a deleted account (`null`, GitHub's `ghost`) is no identifiable participant, and counting every one
 * as the same human "ghost" would make strangers one person.
 */
export function humanParticipants(
  author: Actor | null,
  commenters: Array<Actor | null>,
  cfg: BotConfig = DEFAULT_BOT_CONFIG,
): string[] {
  const set = new Set<string>();
  for (const a of [author, ...commenters]) if (a && !isBot(a, cfg)) set.add(loginOf(a));
  return [...set].sort();
}

/** Builds a {@link BotConfig} from CLI-style strings (a regex source, comma lists). */
export function botConfigFrom(opts: { pattern?: string; logins?: string[]; allow?: string[] }): BotConfig {
  return {
    pattern: opts.pattern ? new RegExp(opts.pattern, 'i') : DEFAULT_BOT_PATTERN,
    logins: opts.logins ?? [],
    allow: opts.allow ?? [],
  };
}
