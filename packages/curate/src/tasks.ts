/**
 * The three task builders (pure): QA from an issue conversation, FL from an issue plus the pruned
 * repository tree, CE from an issue, its PR and the changed file before/after.
 * @module
 */
import type { CeItem, Comment, FlItem, Language, QaItem, RawEntry, Turn } from '@faun/schema';
import { type BotConfig, DEFAULT_BOT_CONFIG, isBot, loginOf } from './bots.ts';
import { deriveBlocks, formatBlocks, verifyBlocks } from './edits.ts';
import { CODE_EXTENSIONS, extensionOf } from './filters.ts';

/** Author associations whose reply counts as the maintainers' answer. */
export const MAINTAINER = new Set(['OWNER', 'MEMBER', 'COLLABORATOR']);

const LANG_BY_EXT: Record<string, Language> = {
  py: 'python',
  pyi: 'python',
  java: 'java',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  go: 'go',
  rs: 'rust',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
};

/** The dataset language of a source path (by extension; `other` when unknown). */
export function languageOf(path: string): Language {
  return LANG_BY_EXT[extensionOf(path)] ?? 'other';
}

/**
 * Prunes a file list to common programming-language files outside hidden folders (any path segment
 * starting with '.'); folders that end up empty disappear with their files. Sorted, deduplicated.
 */
export function pruneTree(paths: string[], codeExtensions: string[] = CODE_EXTENSIONS): string[] {
  const keep = new Set<string>();
  for (const p of paths) {
    if (p.split('/').some((seg) => seg.startsWith('.') || seg === '')) continue;
    if (codeExtensions.includes(extensionOf(p))) keep.add(p);
  }
  return [...keep].sort();
}

/** Stable item id of a curated issue. */
export const itemId = (repo: string, issue: number) => `${repo}#${issue}`;

/**
 * QA item: the issue report (title + body) is the questioner's turn; bot comments are dropped; the
 * gold answer is the first reply by a maintainer (OWNER/MEMBER/COLLABORATOR) who is not the issue's
 * author, and the turns between the report and that reply are the context. Null when no maintainer
 * replied.
 */
export function buildQa(
  issue: RawEntry,
  comments: Comment[],
  language: Language,
  bots: BotConfig = DEFAULT_BOT_CONFIG,
): QaItem | null {
  const author = loginOf(issue.author);
  const ordered = [...comments]
    .filter((c) => !isBot(c.author, bots) && c.body.trim() !== '')
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id - b.id);
  const context: Turn[] = [];
  for (const c of ordered) {
    const assoc = c.author_association ?? null;
    const fromAuthor = loginOf(c.author) === author;
    if (!fromAuthor && assoc && MAINTAINER.has(assoc)) {
      return {
        v: 1,
        id: itemId(issue.repo, issue.number),
        task: 'qa',
        repo: issue.repo,
        language,
        issue_number: issue.number,
        issue_title: issue.title,
        issue_body: issue.body ?? '',
        question_association: issue.author_association ?? null,
        context,
        answer: c.body,
        answer_association: assoc,
      };
    }
    context.push({
      role: fromAuthor ? 'questioner' : 'responder',
      author_association: assoc,
      content: c.body,
    });
  }
  return null;
}

/** What every task item is built from: the issue and the commit it starts at. */
export interface IssueInput {
  id: string;
  repo: string;
  issueNumber: number | null;
  title: string;
  body: string;
  baseCommit: string | null;
}

export interface FlInput extends IssueInput {
  tree: string[];
  goldPath: string;
}

/** FL item with the pruned tree; null (with the reason) when the gold path is not in that tree. */
export function buildFl(i: FlInput, codeExtensions?: string[]): { item: FlItem } | { skip: string } {
  const tree = pruneTree(i.tree, codeExtensions);
  if (!tree.includes(i.goldPath)) return { skip: `gold path ${i.goldPath} is not in the pruned tree` };
  return {
    item: {
      v: 1,
      id: i.id,
      task: 'fl',
      repo: i.repo,
      language: languageOf(i.goldPath),
      issue_number: i.issueNumber,
      issue_title: i.title,
      issue_body: i.body,
      base_commit: i.baseCommit,
      tree,
      gold_path: i.goldPath,
    },
  };
}

export interface CeInput extends IssueInput {
  prNumber: number | null;
  prTitle: string;
  prBody: string;
  path: string;
  before: string;
  after: string;
}

/** CE item whose gold SEARCH/REPLACE text re-applies to `before` to give `after` exactly. */
export function buildCe(i: CeInput): { item: CeItem } | { skip: string } {
  if (i.before === i.after) return { skip: 'the file is unchanged' };
  const derived = deriveBlocks(i.before, i.after, i.path);
  if ('reason' in derived) return { skip: `no gold SEARCH/REPLACE blocks: ${derived.reason}` };
  const gold = formatBlocks(derived.blocks, i.path);
  if (!verifyBlocks(i.before, i.after, gold)) return { skip: 'gold blocks do not re-apply exactly' };
  return {
    item: {
      v: 1,
      id: i.id,
      task: 'ce',
      repo: i.repo,
      language: languageOf(i.path),
      issue_number: i.issueNumber,
      issue_title: i.title,
      issue_body: i.body,
      base_commit: i.baseCommit,
      pr_number: i.prNumber,
      pr_title: i.prTitle,
      pr_body: i.prBody,
      path: i.path,
      file_before: i.before,
      file_after: i.after,
      gold_patch: gold,
    },
  };
}
