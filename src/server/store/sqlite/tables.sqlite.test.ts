/** The TablesStore conformance suite, run against the SQLite store. */
import { openTempSqliteStore } from '../../testing/tempStore.js';
import { describeTablesConformance } from '../conformance/tables.conformance.js';

describeTablesConformance(openTempSqliteStore);
