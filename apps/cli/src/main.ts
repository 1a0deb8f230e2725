#!/usr/bin/env bun
/** The `faun` command. */
import { followParent, relaunch, relaunchEnv } from './relaunch.ts';

// a scoring run starts again with the runtime settings it wants from process start (see relaunch.ts)
const tuned = relaunchEnv(process.argv.slice(2), process.env);
if (tuned) await relaunch(tuned);
followParent();

// `faun … | head` closes the pipe early: that is not an error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });

// loaded only here: a relaunching process needs none of the commands
const { runCli } = await import('./program.ts');
process.exitCode = await runCli(process.argv.slice(2));
