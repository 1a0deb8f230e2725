/** @faun/syntax @module */
export {};
