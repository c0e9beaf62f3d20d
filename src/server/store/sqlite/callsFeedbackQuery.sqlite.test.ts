/** The feedback-field call query conformance suite, run against the SQLite store. */
import { describeCallsFeedbackQueryConformance } from '../conformance/callsFeedbackQuery.conformance.js';

describeCallsFeedbackQueryConformance();
