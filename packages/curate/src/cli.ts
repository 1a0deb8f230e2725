/** `faun` subcommands owned by this package. */
import { defineCommand, FaunError } from '@faun/kit';

export const commands = [
  defineCommand({
    name: 'curate',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun curate' is not built yet");
    },
  }),
  defineCommand({
    name: 'build',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun build' is not built yet");
    },
  }),
];
