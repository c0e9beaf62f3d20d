/**
 * `weft serve` as a real child process, started the way a user starts it, for tests that
 * need a separate process (kill -9, several workers). The URL is read from its start-up line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TEST_SCRYPT_N } from './testPasswords.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const BIN = join(ROOT, 'bin', 'weft.js');

/**
 * The environment for a child `weft`: the parent's minus its WEFT_* settings, plus `settings`.
 * It runs build/server/, as `npm start` does; vitest's global setup brings the build up to date
 * (builtServerGlobalSetup.ts).
 */
export function weftEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('WEFT_')));
  // Cheap password hashes, as in-process test servers use (testServer.ts; docs/performance.md "Test time").
  const cheapHashes = { WEFT_PASSWORD_SCRYPT_N: String(TEST_SCRYPT_N) };
  return { ...inherited, HOST: '127.0.0.1', PORT: '0', WEFT_LOG_LEVEL: 'warn', WEFT_NO_DASHBOARD: '1', ...cheapHashes, ...settings };
}

/** Spawns `weft serve [args]` (`bin`: another install's) and resolves once it prints the URL it listens on. */
export async function spawnWeftServe(
  env: NodeJS.ProcessEnv,
  args: string[] = [],
  { bin = BIN, cwd = ROOT }: { bin?: string; cwd?: string } = {},
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawn(process.execPath, [bin, 'serve', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    // A server that never said it was listening is ended: the test holds no handle to stop it, and
    // left running (with its cluster workers) it took CPU from the rest of the run.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`weft serve did not start in time:\n${output}`));
    }, 75_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /Weft is running at (https?:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`weft serve exited early (code ${code}, signal ${signal}):\n${output}`));
    });
  });
  return { child, url, output: () => output };
}
