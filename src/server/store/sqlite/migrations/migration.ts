/** One schema migration: applied once, in version order, inside one transaction. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
