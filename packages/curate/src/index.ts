/** @faun/curate @module */
export {};
