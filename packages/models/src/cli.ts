/** `faun` subcommands owned by this package. */
import { defineCommand, FaunError } from '@faun/kit';

export const commands = [
  defineCommand({
    name: 'predict',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun predict' is not built yet");
    },
  }),
];
