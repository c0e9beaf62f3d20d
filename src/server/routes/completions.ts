/** Completions and images through the configured model providers (`/completions/*`, `/image/create`). */
import { createCompletion, streamCompletion } from '../domain/llm/completions.js';
import { createImage } from '../domain/llm/imageCreate.js';
import { defineRoutes } from '../http/defineRoutes.js';

export const completionRoutes = defineRoutes({
  completionsCreate: {
    runs: 'main',
    handler: (req, { store, inference, clock, user }) =>
      createCompletion({ store, registry: inference.registry, clock, userId: user.username }, req),
  },

  completionsCreateStream: {
    runs: 'main',
    handler: (req, { store, inference, clock, user, request }) =>
      streamCompletion({ store, registry: inference.registry, clock, userId: user.username }, req, request.signal),
  },

  imageCreate: {
    runs: 'main',
    handler: (req, { store, inference, clock, user, limits }) =>
      createImage({ store, registry: inference.registry, clock, userId: user.username, maxFileBytes: limits.maxFileBytes }, req),
  },
});
