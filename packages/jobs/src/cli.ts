/** `faun` subcommands owned by this package. */
import { defineCommand, FaunError } from '@faun/kit';

export const commands = [
  defineCommand({
    name: 'worker',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun worker' is not built yet");
    },
  }),
];
