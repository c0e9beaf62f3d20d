/** One ClickHouse schema migration: its statements run in order, each idempotent. */
export interface ClickHouseMigration {
  version: number;
  name: string;
  statements: string[];
}
