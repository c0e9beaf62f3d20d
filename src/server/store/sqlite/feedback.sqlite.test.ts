/** The FeedbackStore conformance suite, run against the SQLite store. */
import { openTempSqliteStore } from '../../testing/tempStore.js';
import { describeFeedbackConformance } from '../conformance/feedback.conformance.js';

describeFeedbackConformance(openTempSqliteStore);
