/** `faun demo`: the whole pipeline offline. Stages run as their packages provide them. */
import { defineCommand } from '@faun/kit';

export const PIPELINE = ['crawl', 'curate', 'build', 'predict', 'score', 'verify', 'report'] as const;

export const commands = [
  defineCommand({
    name: 'demo',
    summary: 'run the whole pipeline offline on generated data',
    examples: ['faun demo', 'faun demo --out demo-out'],
    options: [{ name: 'out', type: 'string', arg: 'DIR', description: 'output folder', default: 'demo-out' }],
    run(ctx) {
      ctx.log(`faun demo: pipeline ${PIPELINE.join(' → ')}`);
      ctx.log('no stage is built yet; nothing to run');
      return 0;
    },
  }),
];
