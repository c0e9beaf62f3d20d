/** The Store conformance suites, once per backend in WEFT_TEST_STORES (default: sqlite). */
import { describe } from 'vitest';
import { testBackends } from '../testing/tempStore.js';
import { describeStoreConformance } from './conformance/index.js';

for (const backend of testBackends()) {
  describe(`${backend.name} store`, () => describeStoreConformance(backend));
}
