/**
 * The fake GitHub corpus: repositories, issues, PRs, comments, events and files generated lazily and
 * deterministically. Entry numbers come in blocks of 10; each block plants one scenario (see
 * testing/README.md), so entry n of repo r is a pure function of (seed, r, ⌊(n−1)/10⌋) and any page can
 * be served without generating the rest.
 */

import { buildBlock, notOneToOneVariant } from './blocks.ts';
import { allPaths, applyEdit, pristineFile } from './code.ts';

export { headSha } from './blocks.ts';

import {
  type CorpusOptions,
  FAKE_LANGUAGES,
  type FakeEntry,
  type FakeRepo,
  type RepoTruth,
  SCENARIOS,
  type Scenario,
  TRUTH_FILTERS,
} from './corpus-types.ts';
import { fakeSha, Rng } from './rng.ts';

export const BLOCK = 10;
/** 2020-01-01T00:00:00Z, seconds. */
const T0 = 1_577_836_800;

const WEIGHTS: Record<Scenario, number> = {
  clean: 24,
  filler: 8,
  shortBody: 3,
  tooLarge: 3,
  duplicate: 3,
  manyEvents: 3,
  externalLink: 3,
  botAuthored: 3,
  singleHumanParticipant: 3,
  notMerged: 3,
  notDefaultBranch: 3,
  notOneToOne: 3,
  multiFile: 3,
  docsOrTestOnly: 3,
  commentOrStringOnly: 3,
  crossRepoDecoy: 3,
  codeBlockDecoy: 3,
  mentionOnly: 3,
};
const TOTAL_WEIGHT = SCENARIOS.reduce((s, k) => s + WEIGHTS[k], 0);

export class Corpus {
  readonly owner: string;
  readonly seed: string;
  private readonly list: FakeRepo[];
  private readonly cache = new Map<string, FakeEntry[]>();

  constructor(readonly options: CorpusOptions) {
    if (options.repos < 1 || options.entries < 0) throw new Error('corpus needs repos ≥ 1 and entries ≥ 0');
    this.owner = options.owner ?? 'fake-org';
    this.seed = String(options.seed);
    this.list = [];
    const per = Math.floor(options.entries / options.repos);
    const extra = options.entries % options.repos;
    for (let r = 0; r < options.repos; r++) {
      const name = `repo-${r}`;
      this.list.push({
        index: r,
        owner: this.owner,
        name,
        full: `${this.owner}/${name}`,
        oldName: `${this.owner}/old-${name}`,
        id: 100_000 + r,
        language: FAKE_LANGUAGES[r % FAKE_LANGUAGES.length] ?? 'python',
        defaultBranch: r % 4 === 3 ? 'master' : 'main',
        size: per + (r < extra ? 1 : 0),
        baseSha: fakeSha(`${this.seed}:base:${r}`),
        createdAt: T0 + r * 86_400,
      });
    }
  }

  repos(): readonly FakeRepo[] {
    return this.list;
  }

  /** Looks a repository up by `owner/name` (case-insensitive); `renamed` when the old name was used. */
  find(full: string): { repo: FakeRepo; renamed: boolean } | null {
    const f = full.toLowerCase();
    for (const repo of this.list) {
      if (repo.full.toLowerCase() === f) return { repo, renamed: false };
      if (repo.oldName.toLowerCase() === f) return { repo, renamed: true };
    }
    return null;
  }

  byId(id: number): FakeRepo | null {
    return this.list.find((r) => r.id === id) ?? null;
  }

  /** The scenario planted in block `b` of repo `r` (a trailing partial block is always `filler`). */
  scenario(repo: FakeRepo, b: number): Scenario {
    if ((b + 1) * BLOCK > repo.size) return 'filler';
    const x = new Rng(`${this.seed}:scenario:${repo.index}:${b}`).next() * TOTAL_WEIGHT;
    let acc = 0;
    for (const s of SCENARIOS) {
      acc += WEIGHTS[s];
      if (x < acc) return s;
    }
    return 'filler';
  }

  /** The entries of block `b` (numbers 10b+1 … 10b+10, clipped to the repo size). */
  block(repo: FakeRepo, b: number): FakeEntry[] {
    const key = `${repo.index}:${b}`;
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const entries = buildBlock({
      seed: this.seed,
      repo,
      b,
      scenario: this.scenario(repo, b),
      t0: repo.createdAt,
      block: BLOCK,
    });
    this.cache.set(key, entries);
    if (this.cache.size > 256) {
      const first = this.cache.keys().next().value;
      if (first !== undefined) this.cache.delete(first);
    }
    return entries;
  }

  /** Entry `n` of `repo` (including gaps), or null when out of range. */
  entry(repo: FakeRepo, n: number): FakeEntry | null {
    if (!Number.isInteger(n) || n < 1 || n > repo.size) return null;
    return this.block(repo, Math.floor((n - 1) / BLOCK))[(n - 1) % BLOCK] ?? null;
  }

  /** The planted ground truth of one repository (see testing/README.md). */
  truth(repo: FakeRepo): RepoTruth {
    const t: RepoTruth = {
      fixPairs: [],
      clean: [],
      filters: Object.fromEntries(TRUTH_FILTERS.map((f) => [f, []])) as unknown as RepoTruth['filters'],
    };
    const blocks = Math.floor(repo.size / BLOCK);
    for (let b = 0; b < blocks; b++) {
      const s = this.scenario(repo, b);
      if (s === 'filler') continue;
      const I = b * BLOCK + 1;
      const P = I + 1;
      const pair = { repo: repo.full, issue: I, pr: P };
      const decoy =
        s === 'notMerged' ||
        s === 'notDefaultBranch' ||
        s === 'crossRepoDecoy' ||
        s === 'codeBlockDecoy' ||
        s === 'mentionOnly';
      if (s === 'notOneToOne') {
        const variant = notOneToOneVariant(this.seed, repo.index, b) === 'twoIssues';
        const pairs = variant
          ? [pair, { repo: repo.full, issue: I + 2, pr: P }]
          : [pair, { repo: repo.full, issue: I, pr: I + 3 }];
        t.fixPairs.push(...pairs);
        t.filters.notOneToOne.push(...pairs);
        continue;
      }
      if (!decoy) t.fixPairs.push(pair);
      if (s === 'clean') t.clean.push(pair);
      else t.filters[s].push(pair);
    }
    return t;
  }

  /** Content of `path` at `ref` (a branch name, the base sha, or a PR head sha); null if absent. */
  file(repo: FakeRepo, path: string, ref: string | null): string | null {
    const base = pristineFile(repo.language, repo.full, repo.index, path);
    if (base === null) return null;
    const pr = ref ? this.prOfHeadSha(repo, ref) : null;
    if (!pr?.pull) return base;
    let out = base;
    for (const e of pr.pull.edits) if (e.path === path) out = applyEdit(out, e);
    return out;
  }

  /** All paths of a repository (the same at every commit). */
  paths(repo: FakeRepo): string[] {
    return allPaths(repo.language);
  }

  /** The PR whose head commit is `sha` (head shas encode the PR number). */
  prOfHeadSha(repo: FakeRepo, sha: string): FakeEntry | null {
    const m = /^e([0-9a-f]{7})([0-9a-f]{8})/.exec(sha);
    if (!m?.[1] || !m[2] || Number.parseInt(m[1], 16) !== repo.index) return null;
    const e = this.entry(repo, Number.parseInt(m[2], 16));
    return e?.pull && e.pull.headSha === sha ? e : null;
  }
}
