/** @faun/services @module */
export {};
