/** What model-backed endpoints need besides the store: the provider registry and the job runner. */
import type { JobRunner } from '../jobs/JobRunner.js';
import type { ProviderRegistry } from './providerRegistry.js';

export interface InferenceServices {
  registry: ProviderRegistry;
  jobs: JobRunner;
}
