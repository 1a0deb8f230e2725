/** @faun/store @module */
export {};
