/** `faun` subcommands owned by this package. */
import { defineCommand, FaunError } from '@faun/kit';

export const commands = [
  defineCommand({
    name: 'crawl',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun crawl' is not built yet");
    },
  }),
  defineCommand({
    name: 'fake-github',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun fake-github' is not built yet");
    },
  }),
];
