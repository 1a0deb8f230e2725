/** Types of the fake GitHub corpus (see testing/README.md for what each scenario plants). */
import type { FileEdit } from './code.ts';

export type FakeLanguage = 'python' | 'java' | 'javascript' | 'typescript' | 'go';
export const FAKE_LANGUAGES: readonly FakeLanguage[] = ['python', 'java', 'javascript', 'typescript', 'go'];

/** Options of a generated corpus; every byte served is a pure function of these. */
export interface CorpusOptions {
  seed: number | string;
  /** Number of repositories. */
  repos: number;
  /** Total entries (issues + PRs) over all repositories. */
  entries: number;
  /** Owner of the generated repositories (default `fake-org`). */
  owner?: string;
}

export interface FakeRepo {
  index: number;
  owner: string;
  name: string;
  /** `owner/name`. */
  full: string;
  /** The name the repository had before a rename (requests to it answer 301). */
  oldName: string;
  id: number;
  language: FakeLanguage;
  defaultBranch: string;
  /** Highest entry number. */
  size: number;
  /** The commit every fake PR is based on. */
  baseSha: string;
  createdAt: number;
}

/** The truth lists a curation pipeline is checked against (all but `fixPairs` and `clean` are filters). */
export const TRUTH_FILTERS = [
  'shortBody',
  'tooLarge',
  'duplicate',
  'manyEvents',
  'externalLink',
  'botAuthored',
  'singleHumanParticipant',
  'notMerged',
  'notDefaultBranch',
  'notOneToOne',
  'multiFile',
  'docsOrTestOnly',
  'commentOrStringOnly',
  'crossRepoDecoy',
  'codeBlockDecoy',
  'mentionOnly',
] as const;
export type TruthFilter = (typeof TRUTH_FILTERS)[number];

/** One planted situation per block of 10 entry numbers: a clean pair, each filter's case, then filler. */
export const SCENARIOS = ['clean', ...TRUTH_FILTERS, 'filler'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface FakeUser {
  login: string;
  id: number;
  type: 'User' | 'Bot';
}

export interface FakeComment {
  id: number;
  user: FakeUser | null;
  association: string;
  body: string;
  createdAt: number;
  updatedAt: number;
}

export interface FakeEvent {
  id: number;
  event: string;
  actor: FakeUser | null;
  createdAt: number;
  commitId: string | null;
  label?: string;
}

/** A CrossReferencedEvent on an issue's timeline: PR/issue `source` mentioned it. */
export interface FakeCrossRef {
  sourceRepo: string;
  sourceNumber: number;
  sourceKind: 'issue' | 'pr';
  willCloseTarget: boolean;
  at: number;
}

export interface FakePull {
  merged: boolean;
  mergedAt: number | null;
  base: string;
  headSha: string;
  mergeSha: string | null;
  edits: FileEdit[];
  /** GitHub's closingIssuesReferences: `owner/repo` + number. */
  closing: { repo: string; number: number }[];
}

export interface FakeEntry {
  repo: string;
  number: number;
  kind: 'issue' | 'pr';
  /** Absent from lists: a transferred (301) or deleted (410) issue. */
  gap: 'transferred' | 'deleted' | null;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  stateReason: string | null;
  user: FakeUser | null;
  association: string;
  labels: string[];
  locked: boolean;
  createdAt: number;
  updatedAt: number;
  closedAt: number | null;
  comments: FakeComment[];
  events: FakeEvent[];
  crossrefs: FakeCrossRef[];
  /** ClosedEvent closer (a PR number in the same repo), null when closed by hand or open. */
  closerPr: number | null;
  pull: FakePull | null;
}

/** A candidate (issue, PR) pair in a truth list. */
export interface TruthPair {
  repo: string;
  issue: number;
  pr: number;
}

export interface RepoTruth {
  /** Pairs a correct pairing step finds (closing reference, same repo, merged into the default branch). */
  fixPairs: TruthPair[];
  /** fixPairs that survive every filter. */
  clean: TruthPair[];
  filters: Record<TruthFilter, TruthPair[]>;
}
