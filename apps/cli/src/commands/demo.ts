/** `faun demo`: the whole pipeline offline on generated data. */
import { defineCommand, UsageError } from '@faun/kit';
import { runDemo } from '../demo/run.ts';

export const commands = [
  defineCommand({
    name: 'demo',
    summary: 'run the whole pipeline offline on generated data',
    description:
      'Starts a fake GitHub on loopback with a generated corpus, crawls it into DuckDB, curates it (funnel),\n' +
      'builds the QA / FL / CE datasets, runs the offline baselines (BM25 for FL; issue title as answer for\n' +
      'QA and no edit for CE — trivial baselines, labelled as such), scores them, verifies gold and empty\n' +
      'patches of generated instances in containers when a Docker engine is available, and writes the paper\n' +
      'tables for the baselines.',
    examples: ['faun demo', 'faun demo --out /tmp/demo --repos 5 --entries 2000', 'faun demo --verify never'],
    options: [
      { name: 'out', type: 'string', arg: 'DIR', description: 'output folder', default: 'demo-out' },
      { name: 'repos', type: 'number', arg: 'N', description: 'generated repositories', default: 3 },
      {
        name: 'entries',
        type: 'number',
        arg: 'N',
        description: 'issues and PRs over all repositories',
        default: 600,
      },
      { name: 'seed', type: 'number', arg: 'N', description: 'corpus and bootstrap seed', default: 1 },
      {
        name: 'verify',
        type: 'string',
        description: 'container verification: auto (when Docker is available) or never',
        choices: ['auto', 'never'],
        default: 'auto',
      },
      {
        name: 'fresh',
        type: 'boolean',
        description:
          'clear the output folder of an earlier demo first (never a folder the demo did not write)',
        default: true,
      },
    ],
    run(ctx) {
      const o = ctx.opts;
      const repos = Number(o.repos);
      const entries = Number(o.entries);
      if (!Number.isInteger(repos) || repos < 1) throw new UsageError('--repos must be a whole number ≥ 1');
      if (!Number.isInteger(entries) || entries < 10)
        throw new UsageError('--entries must be a whole number ≥ 10');
      return runDemo(
        {
          out: String(o.out),
          repos,
          entries,
          seed: Number(o.seed),
          verify: o.verify as 'auto' | 'never',
          fresh: Boolean(o.fresh),
        },
        ctx,
      );
    },
  }),
];
