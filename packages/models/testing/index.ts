/** `@faun/models/testing`: test doubles and fixtures for this package's and other packages' tests. */
export * from './cli.ts';
export { createEchoProvider, createMockProvider } from './doubles.ts';
export * from './fake-openai.ts';
export * from './swebench.ts';
