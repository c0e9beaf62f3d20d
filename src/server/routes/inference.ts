/**
 * The inference catalogues (domain/llm/inferenceCatalogue.ts). The OpenRouter, Artificial Analysis
 * and catalogue feeds need no credentials, as in the reference; the hardware feed takes
 * `Authorization: Bearer <api key>` only (checked here: the general authenticator reads Basic).
 */
import { catalogModels, hardwareOptions, openRouterListing } from '../domain/llm/inferenceCatalogue.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { UnauthorizedError } from '../errors.js';

export const inferenceRoutes = defineRoutes({
  inferenceOpenRouterModels: {
    runs: 'main',
    handler: async (_req, { inference }) => ({ data: await openRouterListing(inference.registry) }),
  },

  inferenceAnalysisModels: {
    runs: 'main',
    handler: async (_req, { inference }) => ({ data: await openRouterListing(inference.registry) }),
  },

  inferenceHardware: {
    runs: 'main',
    handler: async (req, { inference, authenticator, request }) => {
      const key = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1];
      if (!key) throw new UnauthorizedError('Send Authorization: Bearer <api key>');
      await authenticator.authenticate(`Basic ${Buffer.from(`api:${key}`).toString('base64')}`);
      return { hardware: await hardwareOptions(inference.registry, req.model) };
    },
  },

  inferenceCatalogModels: { runs: 'main', handler: async (_req, { inference }) => ({ models: await catalogModels(inference.registry) }) },
});
