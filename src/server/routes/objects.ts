/** Object endpoints, with tags and aliases: thin maps from endpoint name to domain calls. */
import { createObject, deleteObjects, queryObjects, readLiveObject, toWireObject } from '../domain/objects/objects.js';
import { addTags, removeAliases, removeTags, setAliases } from '../domain/objects/objectLabels.js';
import { losslessAt, losslessBody } from '../domain/objects/losslessJson.js';
import { defineRoutes } from '../http/defineRoutes.js';
import { entityOf, recordFor } from '../audit/auditTrail.js';

export const objectRoutes = defineRoutes({
  objCreate: {
    runs: 'write',
    projects: (input) => [input.obj.project_id],
    handler: ({ obj }, { store, user, clock, rawBody }) =>
      createObject(store, {
        projectId: obj.project_id,
        objectId: obj.object_id,
        // Re-read from the body text: the digest must see `1.0` where the client wrote it.
        val: losslessAt(losslessBody(rawBody, { obj }), ['obj', 'val']) ?? null,
        builtinObjectClass: obj.builtin_object_class ?? obj.set_base_object_class ?? null,
        expectedDigest: obj.expected_digest ?? null,
        wbUserId: user.username,
        now: clock.nowMicros(),
      }),
  },

  objRead: {
    runs: 'read',
    handler: async (req, { store }) => {
      const record = await readLiveObject(store, {
        projectId: req.project_id,
        objectId: req.object_id,
        version: req.digest,
        metadataOnly: req.metadata_only ?? false,
      });
      return { obj: toWireObject(record) };
    },
  },

  objsQuery: {
    runs: 'read',
    handler: async (req, { store }) => ({ objs: await queryObjects(store, req) }),
  },

  objDelete: {
    runs: 'write',
    handler: async (req, ctx) => {
      const answer = await deleteObjects(ctx.store, {
        projectId: req.project_id,
        objectId: req.object_id,
        versions: req.digests ?? null,
        now: ctx.clock.nowMicros(),
      });
      const target = `${req.project_id}/${req.object_id}`;
      await recordFor(ctx, {
        action: 'objects.deleted',
        target,
        entity: entityOf(req.project_id),
        projectId: req.project_id,
        details: { deleted: answer.num_deleted },
      });
      return answer;
    },
  },

  objAddTags: {
    runs: 'write',
    handler: async (req, { store, clock }) => {
      await addTags(store, {
        projectId: req.project_id,
        objectId: req.object_id,
        version: req.digest,
        tags: req.tags,
        now: clock.nowMicros(),
      });
      return {};
    },
  },

  objRemoveTags: {
    runs: 'write',
    handler: async (req, { store }) => {
      await removeTags(store, { projectId: req.project_id, objectId: req.object_id, version: req.digest, tags: req.tags });
      return {};
    },
  },

  objSetAliases: {
    runs: 'write',
    handler: async (req, { store, clock }) => {
      await setAliases(store, {
        projectId: req.project_id,
        objectId: req.object_id,
        version: req.digest,
        aliases: req.aliases,
        now: clock.nowMicros(),
      });
      return {};
    },
  },

  objRemoveAliases: {
    runs: 'write',
    handler: async (req, { store }) => {
      await removeAliases(store, { projectId: req.project_id, objectId: req.object_id, aliases: req.aliases });
      return {};
    },
  },

  tagsList: {
    runs: 'read',
    handler: async (req, { store }) => ({ tags: await store.objects.listTags(req.project_id) }),
  },

  aliasesList: {
    runs: 'read',
    handler: async (req, { store }) => ({ aliases: await store.objects.listAliases(req.project_id) }),
  },
});
