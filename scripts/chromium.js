// The browser the end-to-end tests drive, never a download: CHROMIUM_PATH, then Debian's
// headless shell (`apt-get install chromium-headless-shell`: the same engine without the
// desktop browser's compositor, ~40 % less CPU per test; docs/performance.md "Test time"), then
// Debian's full Chromium, then one Playwright installed earlier.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

export const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** The first browser found, or null. */
export function findChromium() {
  const candidates = [process.env.CHROMIUM_PATH, ...CHROMIUM_CANDIDATES];
  try {
    const { chromium } = createRequire(import.meta.url)('playwright-core');
    candidates.push(chromium.executablePath());
  } catch {
    // playwright-core not resolvable: only the system paths count
  }
  return candidates.find((p) => p && existsSync(p)) ?? null;
}
