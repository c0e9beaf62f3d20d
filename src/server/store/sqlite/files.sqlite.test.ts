/** The FilesStore conformance suite, run against the SQLite store. */
import { openTempSqliteStore } from '../../testing/tempStore.js';
import { describeFilesConformance } from '../conformance/files.conformance.js';

describeFilesConformance(openTempSqliteStore);
