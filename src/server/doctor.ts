/**
 * `weft doctor`: checks of a deployment's settings that the server itself cannot refuse, each
 * printed with what to do. Any warning makes the exit status 1, so a deploy script can stop on
 * it. A check is a function of the settings; add one to CHECKS.
 */
import type { ServerConfig } from './config.js';

export interface DoctorFinding {
  level: 'ok' | 'warn';
  check: string;
  message: string;
}

type Check = (config: ServerConfig) => DoctorFinding | Promise<DoctorFinding>;

/**
 * A ClickHouse user without a password lets anything that can send an HTTP request to the
 * engine read and write every tenant's data; a forged request from any service beside it (an
 * SSRF) needs no credentials then (docs/security/outbound.md).
 */
const clickhousePassword: Check = (config) => {
  const check = 'clickhouse-password';
  if (config.store !== 'clickhouse') return { level: 'ok', check, message: 'the SQLite store has no database user' };
  const user = config.clickhouseUser || 'default';
  if (config.clickhousePassword) return { level: 'ok', check, message: `the ClickHouse user "${user}" is given a password` };
  return {
    level: 'warn',
    check,
    message:
      `the ClickHouse user "${user}" has no password (WEFT_CLICKHOUSE_PASSWORD is not set): anything that can reach the engine's HTTP port, ` +
      "including a request forged through another service, can read and change every tenant's data. Give the user a password in " +
      'ClickHouse (users.xml or CREATE USER ... IDENTIFIED BY) and set WEFT_CLICKHOUSE_PASSWORD.',
  };
};

export const CHECKS: readonly Check[] = [clickhousePassword];

export async function runDoctor(config: ServerConfig, checks: readonly Check[] = CHECKS): Promise<DoctorFinding[]> {
  const findings: DoctorFinding[] = [];
  for (const check of checks) findings.push(await check(config));
  return findings;
}
