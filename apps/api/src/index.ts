/**
 * @faun/api — the Hono API (scoring, runs, datasets, leaderboard), its server-rendered pages and its
 * drizzle persistence (PGlite by default, PostgreSQL when DATABASE_URL is set).
 * @module
 */
export { createApp } from './app.ts';
export { type ApiConfig, DEFAULT_CONFIG, type Services } from './context.ts';
export { type Database, type Db, openDatabase } from './db/open.ts';
export { ApiError, type ErrorEnvelope } from './errors.ts';
export { jsonLog, type ServeOptions, type ServerHandle, startServer } from './server.ts';
export { createKey, type KeyOptions, listKeys, revokeKey } from './service/keys.ts';
