/** Debian's Chromium for browser tests, with the flags this machine needs (no network, root). */
import { ensureDebs } from './apt.ts';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/** Installs Chromium when missing and returns its path. */
export async function chromiumPath(log?: (l: string) => void): Promise<string> {
  await ensureDebs(['chromium'], log);
  return '/usr/bin/chromium';
}
