/** `faun worker`: pulls verification and scoring jobs from Redis and posts their results. */
import { defineCommand, PrerequisiteError, parseRepoDirs, repoDirOption } from '@faun/kit';
import { defaultWorkDeps, type VerifyConfig } from './handlers.ts';
import { RESULTS_QUEUE, WORK_QUEUE } from './kinds.ts';
import { probeRedis, redactRedisUrl } from './probe.ts';
import { openQueue } from './queue.ts';
import { createWorkHandler, forwardFinalFailures } from './worker.ts';

export const commands = [
  defineCommand({
    name: 'worker',
    summary: 'pull verification and scoring jobs from the queue',
    description:
      'Connects to Redis (--redis-url or REDIS_URL), runs `score` and `verify` jobs with bounded concurrency ' +
      'and posts per-item results back for the API to store. Infrastructure failures are retried with ' +
      'backoff; a job held by a worker that dies is picked up again by another one. Stop with Ctrl+C.',
    examples: ['REDIS_URL=redis://10.0.0.5:6379 faun worker --concurrency 4'],
    options: [
      { name: 'redis-url', type: 'string', arg: 'URL', description: 'Redis server (default $REDIS_URL)' },
      { name: 'concurrency', type: 'number', arg: 'N', description: 'jobs run at once', default: 2 },
      {
        name: 'backend',
        type: 'string',
        choices: ['docker', 'local'],
        default: 'docker',
        description:
          'where verification jobs run: docker containers, or local processes (no isolation; tests)',
      },
      repoDirOption('local git directory of a repository (offline verification)'),
      {
        name: 'timeout',
        type: 'number',
        arg: 'S',
        default: 1800,
        description: 'per-instance test timeout, seconds',
      },
      {
        name: 'lock-ms',
        type: 'number',
        arg: 'MS',
        description: 'job lock duration; a dead worker’s jobs are retried after about this long',
        default: 30000,
      },
    ],
    async run(ctx) {
      const url = (ctx.opts.redisUrl as string | undefined) ?? process.env.REDIS_URL;
      if (!url)
        throw new PrerequisiteError('faun worker needs a Redis server', {
          hint: 'pass --redis-url redis://host:6379 or set REDIS_URL (the one `faun serve` uses)',
        });
      const lockMs = Number(ctx.opts.lockMs ?? 30000);
      const unreachable = await probeRedis(url);
      if (unreachable)
        throw new PrerequisiteError(`cannot reach Redis at ${redactRedisUrl(url)}: ${unreachable}`, {
          hint: 'start Redis or fix --redis-url / REDIS_URL (redis://host:6379)',
        });
      const work = openQueue(WORK_QUEUE, { redisUrl: url, lockMs });
      const results = openQueue(RESULTS_QUEUE, { redisUrl: url, lockMs });
      forwardFinalFailures(work, results);
      const concurrency = Math.max(1, Number(ctx.opts.concurrency ?? 2));
      const verify: VerifyConfig = {
        backend: ctx.opts.backend === 'local' ? 'local' : 'docker',
        repoDirs: parseRepoDirs((ctx.opts.repoDir as string[] | undefined) ?? []),
        timeoutS: Number(ctx.opts.timeout ?? 1800),
      };
      await work.process(createWorkHandler(results, defaultWorkDeps(ctx.log, verify)), { concurrency });
      ctx.log(`worker ready (pid ${process.pid}, concurrency ${concurrency})`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      ctx.log('worker stopping: finishing running jobs');
      await work.close();
      await results.close();
      return 0;
    },
  }),
];
