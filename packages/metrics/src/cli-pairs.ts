/** `faun score-pairs` on its own (the registry loads it without `score` and its task-record schemas). */
import { scorePairs } from './commands/score-pairs.ts';

export { PAIRS_PER_THREAD, PAIRS_PER_THREAD_NATIVE } from './commands/score-pairs.ts';
export const commands = [scorePairs];
