/** @faun/models @module */
export {};
