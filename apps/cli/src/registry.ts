/**
 * Every `faun` subcommand, by owning package. Modules load lazily: only the package of the command
 * being run is imported, so `faun --help` and small commands start fast.
 */
import type { CommandSpec } from '@faun/kit';

export interface CommandEntry {
  name: string;
  summary: string;
  /** Item-processing flags this command takes besides its own (`--limit`, `--concurrency`). */
  common?: ('limit' | 'concurrency')[];
  load(): Promise<CommandSpec>;
}

const from =
  (mod: () => Promise<{ commands: CommandSpec[] }>, name: string) => async (): Promise<CommandSpec> => {
    const found = (await mod()).commands.find((c) => c.name === name);
    if (!found) throw new Error(`internal: command '${name}' is not exported by its package`);
    return found;
  };

const github = () => import('@faun/github/cli');
const store = () => import('@faun/store/cli');
const curate = () => import('@faun/curate/cli');
const models = () => import('@faun/models/cli');
const metrics = () => import('@faun/metrics/cli');
// score-pairs alone: without `score`'s task-record schemas, so short pair files start sooner
const metricsPairs = () => import('@faun/metrics/cli-pairs');
const harness = () => import('@faun/harness/cli');
const api = () => import('@faun/api/cli');
const jobs = () => import('@faun/jobs/cli');
const demo = () => import('./commands/demo.ts');

export const REGISTRY: CommandEntry[] = [
  {
    name: 'crawl',
    summary: 'crawl GitHub issues and PRs into a DuckDB store',
    common: ['concurrency'],
    load: from(github, 'crawl'),
  },
  {
    name: 'fake-github',
    summary: 'start the fake GitHub server on loopback',
    load: from(github, 'fake-github'),
  },
  { name: 'stats', summary: 'show store counts and the curation funnel', load: from(store, 'stats') },
  {
    name: 'curate',
    summary: 'pair issues with fixing PRs and apply the filters',
    common: ['concurrency'],
    load: from(curate, 'curate'),
  },
  {
    name: 'build',
    summary: 'build the QA / FL / CE task datasets',
    common: ['limit'],
    load: from(curate, 'build'),
  },
  {
    name: 'predict',
    summary: 'run a model on a task dataset',
    common: ['limit', 'concurrency'],
    load: from(models, 'predict'),
  },
  {
    name: 'score',
    summary: 'score predictions against a task dataset',
    common: ['limit'],
    load: from(metrics, 'score'),
  },
  {
    name: 'score-pairs',
    summary: 'score {hyp, ref} pairs with one metric or all',
    common: ['limit'],
    load: from(metricsPairs, 'score-pairs'),
  },
  {
    name: 'verify',
    summary: 'apply patches in containers and grade the tests',
    common: ['limit'],
    load: from(harness, 'verify'),
  },
  {
    name: 'validate',
    summary: 'derive FAIL_TO_PASS / PASS_TO_PASS for new instances',
    load: from(harness, 'validate'),
  },
  {
    name: 'report',
    summary: 'regrade a verification run from its stored logs',
    load: from(harness, 'report'),
  },
  {
    name: 'instances',
    summary: 'instance health: gold runs that failed, per-test failure rates',
    load: from(harness, 'instances'),
  },
  { name: 'serve', summary: 'serve the scoring API and result pages', load: from(api, 'serve') },
  {
    name: 'worker',
    summary: 'pull verification and scoring jobs from the queue',
    load: from(jobs, 'worker'),
  },
  { name: 'demo', summary: 'run the whole pipeline offline on generated data', load: from(demo, 'demo') },
];
