/** The ObjectsStore conformance suite, run against the SQLite store. */
import { openTempSqliteStore } from '../../testing/tempStore.js';
import { describeObjectsConformance } from '../conformance/objects.conformance.js';

describeObjectsConformance(openTempSqliteStore);
