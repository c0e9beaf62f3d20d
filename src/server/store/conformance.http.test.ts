/** The Store conformance suites of the "http" group (conformance/index.ts), once per backend in WEFT_TEST_STORES. */
import { describe } from 'vitest';
import { testBackends } from '../testing/tempStore.js';
import { describeStoreConformance } from './conformance/index.js';

for (const backend of testBackends()) {
  describe(`${backend.name} store`, () => describeStoreConformance(backend, 'http'));
}
