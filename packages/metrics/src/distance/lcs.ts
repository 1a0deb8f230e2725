/** The bit-parallel LCS length and Levenshtein distance live in `@faun/kit/distance` (dependency-free). */
export { lcsLength, levenshtein } from '@faun/kit/distance';
