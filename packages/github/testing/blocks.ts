/** Builds the 10 entries of one block for its planted scenario (see testing/README.md). */
import { docOrTestEdit, type FileEdit, FUNCS, MODULES, sourceEdit } from './code.ts';
import type { FakeEntry, FakeRepo, Scenario } from './corpus-types.ts';
import { blank, type Ctx, close, codeEdit, comment, events, finish, pull } from './entry-kit.ts';
import { Rng } from './rng.ts';
import { bot, human, issueTitle, machineUser, otherHuman, prose, sentence, shortText } from './text.ts';

export { headSha } from './entry-kit.ts';

export interface BlockInput {
  seed: string;
  repo: FakeRepo;
  b: number;
  scenario: Scenario;
  t0: number;
  block: number;
}

/** Which form a `notOneToOne` block takes: one PR closing two issues, or two PRs closing one issue. */
export function notOneToOneVariant(seed: string, r: number, b: number): 'twoIssues' | 'twoPrs' {
  return new Rng(`${seed}:1to1:${r}:${b}`).chance(0.5) ? 'twoIssues' : 'twoPrs';
}

/** The closing-reference forms clean PRs use (all are GitHub closing references). */
export function closingRef(form: number, full: string, n: number): string {
  const forms = [
    `Fixes #${n}`,
    `fixes: #${n}`,
    `Closes GH-${n}`,
    `Resolves ${full}#${n}`,
    `Fixed https://github.com/${full}/issues/${n}`,
    `RESOLVES #${n}`,
    `close #${n}`,
  ];
  return forms[form % forms.length] ?? `Fixes #${n}`;
}

function filler(ctx: Ctx, n: number): FakeEntry {
  const x = ctx.rng.next();
  const r = ctx.rng;
  if (x < 0.05) {
    const e = blank(ctx, n, 'issue');
    e.gap = r.chance(0.5) ? 'transferred' : 'deleted';
    e.title = 'Moved elsewhere';
    e.body = prose(r, 100);
    return finish(e);
  }
  const isPr = x >= 0.55;
  const e = blank(ctx, n, isPr ? 'pr' : 'issue');
  if (!isPr) {
    e.title = issueTitle(r, `func${r.int(0, FUNCS - 1)}`);
    e.body = r.chance(0.1) ? null : prose(r, r.int(50, 600));
    if (x < 0.1) e.user = null;
    else if (x < 0.15) e.user = bot(r);
    else if (x < 0.2) e.user = machineUser(r);
    e.locked = r.chance(0.06);
    if (x >= 0.35) close(e, e.createdAt + 900, r.chance(0.5) ? 'not_planned' : 'completed');
    for (let k = 0, c = r.int(0, 3); k < c; k++)
      e.comments.push(comment(ctx, e, k, r.chance(0.1) ? null : human(r), sentence(r)));
    events(ctx, e, r.int(1, 5), null);
    return finish(e);
  }
  if (x < 0.7) {
    e.user = bot(r);
    e.title = 'Bump lodash from 4.17.20 to 4.17.21';
    e.body = 'Bumps lodash from 4.17.20 to 4.17.21.';
    pull(ctx, e, [docOrTestEdit(ctx.repo.language, 'docs', 0)], true, ctx.repo.defaultBranch);
  } else {
    const { edit, fn } = codeEdit(ctx);
    e.title = `Refactor ${fn}`;
    e.body = prose(r, 80);
    if (r.chance(0.1)) e.user = null;
    pull(ctx, e, [edit], x < 0.9, ctx.repo.defaultBranch);
  }
  events(ctx, e, r.int(1, 3), null);
  return finish(e);
}

/** Builds block `b`: entries 10b+1 … 10b+10 (clipped to the repo size). */
export function buildBlock(input: BlockInput): FakeEntry[] {
  const { repo, b, scenario: s, block } = input;
  const ctx: Ctx = {
    seed: input.seed,
    repo,
    rng: new Rng(`${input.seed}:block:${repo.index}:${b}`),
    t0: input.t0,
  };
  const first = b * block + 1;
  const last = Math.min(repo.size, first + block - 1);
  const out: FakeEntry[] = [];
  for (let n = first; n <= last; n++) out.push(filler(ctx, n));
  if (s === 'filler') return out;
  const r = ctx.rng;
  const variant = s === 'notOneToOne' ? notOneToOneVariant(input.seed, repo.index, b) : null;
  const issues = [candidateIssue(ctx, first, s)];
  if (variant === 'twoIssues') issues.push(candidateIssue(ctx, first + 2, 'clean'));
  const prNumbers = variant === 'twoPrs' ? [first + 1, first + 3] : [first + 1];
  const prs = prNumbers.map((n) =>
    candidatePr(
      ctx,
      n,
      s,
      issues.map((i) => i.number),
    ),
  );
  for (const p of prs) {
    const refs = p.pull?.closing ?? [];
    for (const issue of issues) {
      const closes =
        refs.some((c) => c.repo === repo.full && c.number === issue.number) && p.pull?.merged === true;
      const mentioned = closes || s === 'mentionOnly' || s === 'notDefaultBranch' || s === 'notMerged';
      if (mentioned)
        issue.crossrefs.push({
          sourceRepo: repo.full,
          sourceNumber: p.number,
          sourceKind: 'pr',
          willCloseTarget: refs.some((c) => c.repo === repo.full && c.number === issue.number),
          at: p.createdAt + 60,
        });
      if (closes && issue.closerPr === null) issue.closerPr = p.number;
    }
  }
  for (const issue of issues) {
    const closer = prs.find((p) => p.number === issue.closerPr);
    const at = (closer?.pull?.mergedAt ?? issue.createdAt + 5000) + 5;
    close(issue, at, 'completed');
    const n = s === 'manyEvents' && issue.number === first ? r.int(11, 16) : r.int(2, 6);
    events(ctx, issue, n, closer?.pull?.mergeSha ?? null);
    finish(issue);
  }
  for (const e of [...issues, ...prs]) out[e.number - first] = e;
  return out;
}

function candidateIssue(ctx: Ctx, n: number, s: Scenario): FakeEntry {
  const r = ctx.rng;
  const e = blank(ctx, n, 'issue');
  const fn = `func${r.int(0, FUNCS - 1)}`;
  e.title = issueTitle(r, fn);
  e.labels = ['bug'];
  const full = ctx.repo.full;
  let body = prose(r, r.int(400, 1500));
  if (r.chance(0.3))
    body += `\n\nThe code is in https://github.com/${full}/blob/${ctx.repo.defaultBranch}/README.md and ${fn}.`;
  if (r.chance(0.3)) body += `\n\n\`\`\`\nresult = ${fn}(1, 2)\n\`\`\``;
  if (s === 'shortBody') body = shortText(r);
  if (s === 'tooLarge') body = prose(r, 9000);
  if (s === 'externalLink')
    body += `\n\nSee https://stackoverflow.com/questions/${r.int(1_000_000, 9_999_999)} for a similar report.`;
  e.body = body;
  if (s === 'botAuthored') e.user = bot(r);
  const author = e.user;
  if (s === 'singleHumanParticipant') {
    for (let k = 0, c = r.int(0, 2); k < c; k++)
      e.comments.push(comment(ctx, e, k, r.chance(0.5) ? author : bot(r), sentence(r)));
  } else {
    const a = otherHuman(r, author);
    e.comments.push(comment(ctx, e, 0, a, sentence(r)));
    if (s === 'botAuthored') e.comments.push(comment(ctx, e, 1, otherHuman(r, a), sentence(r)));
    else if (r.chance(0.5)) e.comments.push(comment(ctx, e, 1, author, sentence(r)));
    if (r.chance(0.3))
      e.comments.push(
        comment(ctx, e, e.comments.length, bot(r), 'This issue has been automatically marked as stale.'),
      );
  }
  if (s === 'duplicate') {
    e.labels = ['bug', 'duplicate'];
    e.comments.push(
      comment(ctx, e, e.comments.length, otherHuman(r, author), `Duplicate of #${Math.max(1, n - 10)}`),
    );
  }
  return e;
}

function candidatePr(ctx: Ctx, n: number, s: Scenario, issues: number[]): FakeEntry {
  const r = ctx.rng;
  const repo = ctx.repo;
  const e = blank(ctx, n, 'pr');
  if (r.chance(0.08)) e.user = null;
  let edits: FileEdit[];
  const main = codeEdit(ctx);
  edits = [main.edit];
  if (s === 'multiFile') {
    const k0 = r.int(0, MODULES - 1);
    edits = [];
    for (let i = 0, c = r.int(2, 3); i < c; i++)
      edits.push(sourceEdit(repo.language, repo.index, (k0 + i) % MODULES, r.int(0, FUNCS - 1), 'code'));
  }
  if (s === 'docsOrTestOnly')
    edits = [docOrTestEdit(repo.language, r.chance(0.5) ? 'docs' : 'test', r.int(0, MODULES - 1))];
  if (s === 'commentOrStringOnly')
    edits = [
      sourceEdit(
        repo.language,
        repo.index,
        r.int(0, MODULES - 1),
        r.int(0, FUNCS - 1),
        r.chance(0.5) ? 'comment' : 'string',
      ),
    ];
  e.title = `Fix ${main.fn} in ${edits[0]?.path ?? 'src'}`;
  const desc = `This changes ${edits.map((x) => x.path).join(', ')} so that ${main.fn} gives the expected result.`;
  const I = issues[0] ?? 1;
  const form = r.int(0, 6);
  let refs: string;
  let closing = issues.map((i) => ({ repo: repo.full, number: i }));
  switch (s) {
    case 'crossRepoDecoy':
      refs = `Fixes other-org/other-repo#${I}`;
      closing = [{ repo: 'other-org/other-repo', number: I }];
      break;
    case 'codeBlockDecoy':
      refs = r.pick([
        `\`\`\`\nFixes #${I}\n\`\`\``,
        `<!-- Fixes #${I} -->`,
        `Run \`git commit -m "Fixes #${I}"\` to try it.`,
      ]);
      closing = [];
      break;
    case 'mentionOnly':
      refs = r.pick([`Related to #${I}`, `See #${I} for the report.`]);
      closing = [];
      break;
    default:
      refs = issues.map((i, k) => closingRef(form + k, repo.full, i)).join('\n');
  }
  e.body = `${desc}\n\n${refs}\n`;
  const base = s === 'notDefaultBranch' ? 'release-1.x' : repo.defaultBranch;
  pull(ctx, e, edits, s !== 'notMerged', base);
  if (s === 'notDefaultBranch') closing = [];
  if (e.pull) e.pull.closing = closing;
  events(ctx, e, r.int(1, 3), null);
  return finish(e);
}
