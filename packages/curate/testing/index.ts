/** `@faun/curate/testing`: test doubles for this package's and other packages' tests. */
export { MemoryStore } from './memory-store.ts';
