/** `faun` subcommands owned by this package. */
import { defineCommand, FaunError } from '@faun/kit';

export const commands = [
  defineCommand({
    name: 'verify',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun verify' is not built yet");
    },
  }),
  defineCommand({
    name: 'validate',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun validate' is not built yet");
    },
  }),
  defineCommand({
    name: 'report',
    summary: 'not built yet',
    run() {
      throw new FaunError("'faun report' is not built yet");
    },
  }),
];
