#!/usr/bin/env bun
/** The `faun` command. */
import { runCli } from './program.ts';

// `faun … | head` closes the pipe early: that is not an error.
for (const stream of [process.stdout, process.stderr])
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });

process.exitCode = await runCli(process.argv.slice(2));
