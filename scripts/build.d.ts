/** Types for build.js (plain JS so that bin/weft.js can rebuild without a TypeScript loader). */
export const ROOT: string;
/** Bundles the server into `<out>/build/server`; resolves with the seconds it took. */
export function buildServer(options?: { out?: string }): Promise<number>;
/** Builds the dashboard into `<out>/dist`; resolves with the seconds it took. */
export function buildDashboard(options?: { out?: string }): Promise<number>;
/** 'fresh', 'missing', or which input changed since the last build. */
export function serverBuildNeed(root?: string): string;
export function ensureServerBuilt(options?: { out?: NodeJS.WritableStream }): Promise<void>;
