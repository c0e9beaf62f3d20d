/** `POST /graphql`: the W&B GraphQL start-up of the Weave SDKs (domain/wandbGraphql/). */
import { executeWandbGraphql } from '../domain/wandbGraphql/executeGraphql.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { actorOf } from '../audit/auditTrail.js';

export const graphqlRoutes = defineRoutes({
  wandbGraphql: {
    runs: 'write',
    // Credentials are checked inside, so a bad key is answered as a GraphQL error (see executeGraphql.ts).
    handler: async (req, { store, authenticator, request, remoteIp, log, publicUrl, audit }) => {
      const { status, headers, body } = await executeWandbGraphql({
        store,
        authenticator,
        authorization: request.headers.get('authorization'),
        address: remoteIp,
        // What the server says of itself, not the request's Host header (docs/security/inputs.md).
        origin: publicUrl,
        req,
        onInternalError: (err) => log.error('POST /graphql resolver failed', err),
        onProjectCreated: (projectId, user) =>
          audit.record({
            actor: actorOf(user),
            address: remoteIp,
            action: 'project.created',
            target: projectId,
            entity: projectId.split('/')[0]!,
            projectId,
            outcome: 'success',
          }),
      });
      return Response.json(body, { status, headers });
    },
  },
});
