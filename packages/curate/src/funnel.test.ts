import { describe, expect, test } from 'bun:test';
import { humanParticipants, isBot } from './bots.ts';
import { DEFAULT_FILTERS, hasExternalLink, isNonFunctional } from './filters.ts';
import { curateRepo, STEPS } from './funnel.ts';
import { formatFunnel, totalRows } from './funnel-table.ts';
import { agreement, findLinks } from './pairing.ts';
import { EXPECTED, issue, plantedRepo, REPO, SURVIVORS } from './test-corpus.ts';

const ids = (list: Array<{ issue: number; pr: number | null }> | undefined) =>
  (list ?? []).map((r) => (r.pr === null ? String(r.issue) : `${r.issue}:${r.pr}`)).sort();

describe('funnel over the planted corpus', () => {
  test('each step removes exactly the planted entries; the right pairs survive', async () => {
    const commentOnly = async (_repo: string, pr: { number: number }) => pr.number === 23;
    const out = await curateRepo(plantedRepo(), DEFAULT_FILTERS, commentOnly);
    for (const [step, want] of Object.entries(EXPECTED)) {
      expect({ step, got: ids(out.removed[step as keyof typeof out.removed]) }).toEqual({
        step,
        got: [...want].sort(),
      });
    }
    expect(out.pairs.map((p) => `${p.pair.issue}:${p.pair.pr}`)).toEqual(SURVIVORS);
    expect(out.rows.map((r) => r.step)).toEqual(STEPS.filter((s) => s !== 'semantic'));
    const first = out.rows[0];
    expect(first).toMatchObject({ step: 'botAuthored', input: 20, removed: 1, output: 19 });
  });

  test('evidence and agreement with GitHub closing data', async () => {
    const out = await curateRepo(plantedRepo(), DEFAULT_FILTERS);
    const p1 = out.pairs.find((p) => p.pair.issue === 1)?.pair.evidence;
    expect(p1).toEqual({
      text_reference: true,
      closing_keyword: true,
      cross_ref_event: true,
      github_closing: true,
    });
    const p28 = out.pairs.find((p) => p.pair.issue === 28)?.pair.evidence;
    expect(p28?.github_closing).toBe(false);
    // #1↔#2 agree (both), #28↔#29 disagrees (ours only, colon form); the rest have no GitHub data.
    expect(out.agreement).toMatchObject({
      compared: 2,
      both: 1,
      oursOnly: 1,
      oursOnlyViaColon: 1,
      rate: 0.5,
    });
  });

  test('without a comment-only checker the step is marked skipped and removes nothing', async () => {
    const out = await curateRepo(plantedRepo(), DEFAULT_FILTERS);
    const row = out.rows.find((r) => r.step === 'commentOrStringOnly');
    expect(row).toMatchObject({ removed: 0, skipped: true });
  });

  test('deterministic: same input, same rows; totals add up; table renders', async () => {
    const a = await curateRepo(plantedRepo(), DEFAULT_FILTERS);
    const b = await curateRepo(plantedRepo(), DEFAULT_FILTERS);
    expect(JSON.stringify(a.rows)).toBe(JSON.stringify(b.rows));
    const total = totalRows([...a.rows, ...b.rows.map((r) => ({ ...r, repo: 'x/y' }))]);
    expect(total[0]).toMatchObject({ repo: '(total)', input: 40, removed: 2 });
    expect(formatFunnel(a.rows)).toContain('notOneToOne');
  });
});

describe('partially crawled details', () => {
  test('uncrawled comments keep the issue; changed_files wins over a truncated file list', async () => {
    const data = plantedRepo();
    data.comments = data.comments.filter((c) => c.number !== 1);
    data.entries = data.entries.map((e) => {
      if (e.number === 1) return { ...e, comments_count: 2 };
      if (e.number === 2 && e.pr) return { ...e, pr: { ...e.pr, changed_files: 3 } };
      return e;
    });
    const out = await curateRepo(data, DEFAULT_FILTERS);
    expect(ids(out.removed.singleHumanParticipant)).toEqual(['9']);
    expect(ids(out.removed.multiFile)).toEqual(['18:19', '1:2']);
    data.entries = data.entries.map((e) => (e.number === 1 ? { ...e, comments_count: 0 } : e));
    const again = await curateRepo(data, DEFAULT_FILTERS);
    expect(ids(again.removed.singleHumanParticipant)).toEqual(['1', '9']);
  });
});

describe('pairing decoys', () => {
  test('a foreign PR closing our issue and a code-block keyword never pair', () => {
    const links = findLinks(REPO, plantedRepo().entries, plantedRepo().crossrefs);
    const l24 = links.filter((l) => l.issue === 24);
    expect(l24.map((l) => [l.pr, l.evidence.closing_keyword])).toEqual([[25, false]]);
    const l26 = links.find((l) => l.issue === 26);
    expect(l26?.evidence).toMatchObject({
      text_reference: false,
      closing_keyword: false,
      cross_ref_event: true,
    });
    expect(agreement([]).rate).toBeNull();
  });
});

describe('filters', () => {
  test('bots: REST type, [bot] suffix, GraphQL Bot without suffix, machine users, allowlist', () => {
    expect(isBot({ login: 'dependabot', type: 'Bot' })).toBe(true);
    expect(isBot({ login: 'renovate[bot]', type: 'User' })).toBe(true);
    expect(isBot({ login: 'k8s-ci-robot', type: 'User' })).toBe(true);
    expect(isBot({ login: 'facebook-github-bot', type: 'User' })).toBe(true);
    expect(isBot({ login: 'abbott', type: 'User' })).toBe(false);
    expect(isBot(null)).toBe(false);
    const cfg = { ...DEFAULT_FILTERS.bots, allow: ['robo-bot'], logins: ['buildmaster'] };
    expect(isBot({ login: 'robo-bot', type: 'User' }, cfg)).toBe(false);
    expect(isBot({ login: 'BuildMaster', type: 'User' }, cfg)).toBe(true);
  });
  test('participants: bots and deleted accounts (null) removed', () => {
    expect(
      humanParticipants({ login: 'Ann', type: 'User' }, [
        { login: 'ann', type: 'User' },
        { login: 'x[bot]', type: 'Bot' },
        null,
        null,
      ]),
    ).toEqual(['ann']);
  });
  test('links: GitHub hosts pass, anything else is external; code is ignored', () => {
    const e = (body: string) => hasExternalLink(issue(1, { body }), DEFAULT_FILTERS);
    expect(e('see https://github.com/a/b/issues/1 and https://gist.github.com/x')).toBe(false);
    expect(e('img https://user-images.githubusercontent.com/1.png')).toBe(false);
    expect(e('see [docs](https://docs.python.org/3/)')).toBe(true);
    expect(e('see https://github.com.evil.io/x')).toBe(true);
    expect(e('```\ncurl https://example.com\n```')).toBe(false);
  });
  test('non-functional files', () => {
    const nf = (p: string) => isNonFunctional(p, DEFAULT_FILTERS);
    expect(nf('README.md')).toBe(true);
    expect(nf('docs/conf.txt')).toBe(true);
    expect(nf('tests/test_api.py')).toBe(true);
    expect(nf('src/pkg/test_util.py')).toBe(true);
    expect(nf('pkg/server_test.go')).toBe(true);
    expect(nf('src/app.spec.ts')).toBe(true);
    expect(nf('src/main/java/FooTest.java')).toBe(true);
    expect(nf('src/pkg/api.py')).toBe(false);
    expect(nf('lib/server.go')).toBe(false);
  });
});
