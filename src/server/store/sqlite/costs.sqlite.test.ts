/** The CostsStore conformance suite, run against the SQLite store. */
import { openTempSqliteStore } from '../../testing/tempStore.js';
import { describeCostsConformance } from '../conformance/costs.conformance.js';

describeCostsConformance(openTempSqliteStore);
