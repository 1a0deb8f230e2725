/**
 * One configuration of the crawl benchmark in its own process: `bun crawl-child.ts <config> <options
 * JSON>`. Progress goes to stderr; the last stdout line is the result (figures and store figures).
 */
import { type Config, peakRss, runConfig } from './crawl.ts';

const [config, options] = process.argv.slice(2);
const log = console.log;
console.log = (...a: unknown[]) => console.error(...a);
const r = await runConfig(config as Config, JSON.parse(options ?? '{}'));
log(JSON.stringify({ ...r, peak_rss_bytes: peakRss() }));
