/** `faun` subcommands owned by this package. */
import { defineCommand, FaunError } from '@faun/kit';

export const commands = [
  defineCommand({
    name: 'score',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun score' is not built yet");
    },
  }),
  defineCommand({
    name: 'score-pairs',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun score-pairs' is not built yet");
    },
  }),
];
