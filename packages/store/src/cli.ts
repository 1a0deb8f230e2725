/** `faun` subcommands owned by this package. */
import { defineCommand, FaunError } from '@faun/kit';

export const commands = [
  defineCommand({
    name: 'stats',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun stats' is not built yet");
    },
  }),
];
