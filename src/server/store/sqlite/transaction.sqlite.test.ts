/** The Store.transaction conformance suite, run against the SQLite store. */
import { openTempSqliteStore } from '../../testing/tempStore.js';
import { describeTransactionConformance } from '../conformance/transaction.conformance.js';

describeTransactionConformance(openTempSqliteStore);
