/**
 * The FAUN-Eval filters as pure predicates with one configuration object. Issue filters look at one
 * issue (and its comments/events); fix-pair filters look at the PR and its changed files.
 * @module
 */
import type { PrFile, RawEntry } from '@faun/schema';
import { type BotConfig, DEFAULT_BOT_CONFIG } from './bots.ts';
import { stripNonProse } from './markdown.ts';

/** Extensions of common programming-language source files (FL trees keep only these). */
export const CODE_EXTENSIONS = [
  'py', 'pyi', 'pyx', 'java', 'kt', 'kts', 'scala', 'groovy', 'js', 'jsx', 'mjs', 'cjs', 'ts', 'tsx', 'mts',
  'cts', 'vue', 'svelte', 'go', 'rs', 'c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh', 'hxx', 'cs', 'rb', 'php',
  'swift', 'm', 'mm', 'lua', 'pl', 'pm', 'r', 'jl', 'dart', 'ex', 'exs', 'erl', 'hs', 'clj', 'sh', 'bash',
  'zig', 'nim', 'ml', 'fs',
]; // biome-ignore format: a word list reads better packed

/** Paths that are documentation, tests or other non-functional files, whatever their extension. */
export const NON_FUNCTIONAL_GLOBS = [
  '**/docs/**', '**/doc/**', 'docs/**', 'doc/**', '**/test/**', '**/tests/**', 'test/**', 'tests/**',
  '**/testing/**', 'testing/**', '**/__tests__/**', '**/__mocks__/**', '**/*_test.go', '**/test_*.py',
  '**/*_test.py', '**/conftest.py', '**/*.test.*', '**/*.spec.*', '**/*Test.java', '**/*Tests.java',
  '**/*Test.kt', '**/*_spec.rb', '**/examples/**', 'examples/**', '**/benchmarks/**', '.github/**',
  '**/setup.py', '**/conf.py',
]; // biome-ignore format: a glob list reads better packed

/** Every threshold and list the filters use; {@link DEFAULT_FILTERS} holds the FAUN-Eval values. */
export interface FilterConfig {
  /** Minimum issue body length in characters (FAUN-Eval: 200). */
  minBodyChars: number;
  /** Maximum issue title+body length in characters ("too large"; default 8,000 ≈ 2k tokens). */
  maxChars: number;
  /** Maximum number of timeline events per issue (FAUN-Eval: 10). */
  maxEvents: number;
  /** Hosts a link may point to; `*.x` matches subdomains of x. Any other link removes the issue. */
  githubHosts: string[];
  bots: BotConfig;
  /** Source file extensions (no dot) that count as functional code. */
  codeExtensions: string[];
  /** Globs of documentation / test / non-functional paths. */
  nonFunctionalGlobs: string[];
}

export const DEFAULT_FILTERS: FilterConfig = {
  minBodyChars: 200,
  maxChars: 8_000,
  maxEvents: 10,
  githubHosts: ['github.com', '*.github.com', '*.githubusercontent.com'],
  bots: DEFAULT_BOT_CONFIG,
  codeExtensions: CODE_EXTENSIONS,
  nonFunctionalGlobs: NON_FUNCTIONAL_GLOBS,
};

/** The issue's body, '' for null. */
export function bodyOf(e: RawEntry): string {
  return e.body ?? '';
}

export function isShortBody(e: RawEntry, cfg: FilterConfig): boolean {
  return bodyOf(e).length < cfg.minBodyChars;
}

export function isTooLarge(e: RawEntry, cfg: FilterConfig): boolean {
  return e.title.length + bodyOf(e).length > cfg.maxChars;
}

const DUPLICATE_OF =
  /^\s*duplicate of\s+(?:#\d+|[\w.-]+\/[\w.-]+#\d+|https?:\/\/github\.com\/\S+\/(?:issues|pull)\/\d+)/im;

/**
 * True when GitHub marks the issue a duplicate: the `duplicate` label, `state_reason: duplicate`, or a
 * "Duplicate of #N" comment (GitHub's own marking command) by a non-bot.
 */
export function isMarkedDuplicate(e: RawEntry, comments: Array<{ body: string; human: boolean }>): boolean {
  if (e.labels.some((l) => l.toLowerCase() === 'duplicate')) return true;
  if (e.state_reason?.toLowerCase() === 'duplicate') return true;
  return comments.some((c) => c.human && DUPLICATE_OF.test(c.body));
}

/** Text used to detect duplicates: the body, lower-cased, whitespace collapsed. */
export function normalizedText(e: RawEntry): string {
  return bodyOf(e).toLowerCase().replace(/\s+/g, ' ').trim();
}

const URL_IN_TEXT = /\b(?:https?|ftp):\/\/[^\s<>()[\]"'`]+/gi;

/** Hosts of the links in `text`, ignoring code and HTML comments (where nothing is a link). */
export function linkHosts(text: string): string[] {
  const hosts: string[] = [];
  for (const m of stripNonProse(text).matchAll(URL_IN_TEXT)) {
    try {
      hosts.push(new URL(m[0]).hostname.toLowerCase());
    } catch {
      hosts.push('(invalid)');
    }
  }
  return hosts;
}

export function isGithubHost(host: string, allowed: string[]): boolean {
  return allowed.some((a) => (a.startsWith('*.') ? host.endsWith(a.slice(1)) : host === a));
}

/** True when the issue body links anywhere outside GitHub. */
export function hasExternalLink(e: RawEntry, cfg: FilterConfig): boolean {
  return linkHosts(bodyOf(e)).some((h) => !isGithubHost(h, cfg.githubHosts));
}

export function isMerged(pr: RawEntry): boolean {
  return Boolean(pr.pr?.merged || pr.pr?.merged_at);
}

/**
 * True when the PR targets the repository's default branch. An unknown default branch (not crawled)
 * passes, because the check cannot be made.
 */
export function targetsDefaultBranch(pr: RawEntry): boolean {
  const def = pr.default_branch;
  if (!def || !pr.pr) return true;
  return pr.pr.base_ref === def;
}

/** The changed files of a PR: the separately crawled list, else the entry's own. */
export function changedFiles(pr: RawEntry, crawled: PrFile[] | undefined): PrFile[] {
  if (crawled && crawled.length > 0) return crawled;
  return pr.pr?.files ?? [];
}

/** Number of files a PR changed: GitHub's `changed_files` when crawled, else the length of the file list. */
export function changedFileCount(pr: RawEntry, crawled: PrFile[] | undefined): number {
  if (typeof pr.pr?.changed_files === 'number') return pr.pr.changed_files;
  return changedFiles(pr, crawled).length;
}

/** The extension of a path, lower-case, no dot ('' when none). */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** True for documentation, test and other non-functional files. */
export function isNonFunctional(path: string, cfg: FilterConfig): boolean {
  if (!cfg.codeExtensions.includes(extensionOf(path))) return true;
  return cfg.nonFunctionalGlobs.some((g) => new Bun.Glob(g).match(path));
}
