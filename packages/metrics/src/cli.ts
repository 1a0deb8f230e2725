/** `faun` subcommands owned by this package: `score` and `score-pairs`. */
import { score } from './commands/score.ts';
import { scorePairs } from './commands/score-pairs.ts';

export const commands = [score, scorePairs];
