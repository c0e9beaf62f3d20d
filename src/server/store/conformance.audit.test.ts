/** The AuditStore conformance suite, once per backend in WEFT_TEST_STORES (a file of its own, so it runs alone). */
import { describe } from 'vitest';
import { testBackends } from '../testing/tempStore.js';
import { describeAuditConformance } from './conformance/audit.conformance.js';

for (const backend of testBackends()) {
  describe(`${backend.name} store`, () => describeAuditConformance(backend.open, backend.openPair));
}
