/** The AnnotationQueuesStore conformance suite, run against the SQLite store. */
import { openTempSqliteStore } from '../../testing/tempStore.js';
import { describeAnnotationQueuesConformance } from '../conformance/annotationQueues.conformance.js';

describeAnnotationQueuesConformance(openTempSqliteStore);
