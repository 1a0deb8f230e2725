/** @faun/harness @module */
export {};
