/** Types for chromium.js (plain JS, as scripts/e2e.js loads it before any TypeScript loader). */
export const CHROMIUM_CANDIDATES: string[];
export function findChromium(): string | null;
