/** @faun/api @module */
export {};
