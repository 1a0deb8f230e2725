/** `faun` subcommands owned by this package. */
import { defineCommand, FaunError } from '@faun/kit';

export const commands = [
  defineCommand({
    name: 'serve',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun serve' is not built yet");
    },
  }),
];
