/** @faun/jobs @module */
export {};
