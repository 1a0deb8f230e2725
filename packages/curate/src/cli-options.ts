/** Option declarations and small formatters shared by `faun curate` and `faun build`. */
import { type OptionSpec, repoDirOption } from '@faun/kit';
import { botConfigFrom } from './bots.ts';
import { DEFAULT_FILTERS, type FilterConfig } from './filters.ts';
import type { Agreement } from './pairing.ts';

export const sourceOptions: OptionSpec[] = [
  repoDirOption('read trees and files of a repository from a local clone (git ls-tree / git show)'),
  {
    name: 'api-url',
    type: 'string',
    arg: 'URL',
    description: 'read trees and files through this GitHub API (token from GITHUB_TOKEN)',
  },
];

export const filterOptions: OptionSpec[] = [
  { name: 'min-body', type: 'number', arg: 'N', description: 'minimum issue body length', default: 200 },
  {
    name: 'max-chars',
    type: 'number',
    arg: 'N',
    description: 'maximum issue title+body length',
    default: 8000,
  },
  {
    name: 'max-events',
    type: 'number',
    arg: 'N',
    description: 'maximum timeline events per issue',
    default: 10,
  },
  {
    name: 'bot-pattern',
    type: 'string',
    arg: 'REGEX',
    description: 'machine-user login pattern (default: built-in)',
  },
  {
    name: 'bot-logins',
    type: 'list',
    arg: 'LOGINS',
    description: 'extra machine-user logins',
    repeatable: true,
  },
  {
    name: 'bot-allow',
    type: 'list',
    arg: 'LOGINS',
    description: 'humans the bot pattern matches',
    repeatable: true,
  },
  { name: 'github-hosts', type: 'list', arg: 'HOSTS', description: 'hosts that count as inside GitHub' },
  { name: 'non-functional-globs', type: 'list', arg: 'GLOBS', description: 'docs/test/non-functional paths' },
  { name: 'code-extensions', type: 'list', arg: 'EXTS', description: 'source file extensions (no dot)' },
];

export function filtersFrom(o: Record<string, unknown>): FilterConfig {
  const list = (k: string) =>
    Array.isArray(o[k]) && (o[k] as string[]).length ? (o[k] as string[]) : undefined;
  return {
    minBodyChars: Number(o.minBody ?? DEFAULT_FILTERS.minBodyChars),
    maxChars: Number(o.maxChars ?? DEFAULT_FILTERS.maxChars),
    maxEvents: Number(o.maxEvents ?? DEFAULT_FILTERS.maxEvents),
    githubHosts: list('githubHosts') ?? DEFAULT_FILTERS.githubHosts,
    bots: botConfigFrom({
      pattern: typeof o.botPattern === 'string' ? o.botPattern : undefined,
      logins: list('botLogins'),
      allow: list('botAllow'),
    }),
    codeExtensions: list('codeExtensions') ?? DEFAULT_FILTERS.codeExtensions,
    nonFunctionalGlobs: list('nonFunctionalGlobs') ?? DEFAULT_FILTERS.nonFunctionalGlobs,
  };
}

export function formatAgreement(a: Agreement): string {
  const pct = a.rate === null ? 'n/a' : `${(100 * a.rate).toFixed(1)}%`;
  return [
    `closing keyword vs GitHub closingIssuesReferences/willCloseTarget: ${a.compared} compared, ${a.unknown} without GitHub data, agreement ${pct}`,
    '                 github:yes  github:no',
    `  keyword:yes    ${String(a.both).padStart(10)}  ${String(a.oursOnly).padStart(9)}   (colon form among keyword-only: ${a.oursOnlyViaColon})`,
    `  keyword:no     ${String(a.githubOnly).padStart(10)}  ${String(a.neither).padStart(9)}`,
  ].join('\n');
}
