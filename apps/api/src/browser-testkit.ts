/** Chromium for the page tests, and the teardown of a page-test file. */
import { rmSync } from 'node:fs';
import { CHROMIUM_ARGS, chromiumPath } from '@faun/services';
import { type BrowserContext, chromium } from 'playwright-core';

/** A persistent Chromium context (1280×900) with its profile in `profile`. */
export async function launchChromium(profile: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: await chromiumPath(),
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
}

interface Closable {
  close(): Promise<void>;
}

/** Closes the browser, then the server (either may not have started), then removes `dir` when set. */
export async function closeAll(
  browser: Closable | undefined,
  server: Closable | undefined,
  dir: string,
): Promise<void> {
  await browser?.close();
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}
