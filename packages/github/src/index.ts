/** @faun/github @module */
export {};
