/** @faun/metrics @module */
export {};
