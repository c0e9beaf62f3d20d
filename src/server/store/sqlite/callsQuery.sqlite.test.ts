/** The call query conformance suite, run against the SQLite store. */
import { describeCallsQueryConformance } from '../conformance/callsQuery.conformance.js';

describeCallsQueryConformance();
