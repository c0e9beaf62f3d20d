/**
 * File endpoints. `/files/create` and `/files/content` (what the Python SDK calls) share the
 * handlers of `/file/create` and `/file/content`.
 */
import { createFile, fileContentResponse } from '../domain/objects/files.js';
import { defineRoutes, type RouteDef } from '../http/defineRoutes.js';

const create: RouteDef<'fileCreate'> & RouteDef<'filesCreate'> = {
  runs: 'write',
  handler: (req, { store, clock }) =>
    createFile(store, { projectId: req.project_id, file: req.file, expectedDigest: req.expected_digest || null, now: clock.nowMicros() }),
};

const content: RouteDef<'fileContent'> & RouteDef<'filesContent'> = {
  runs: 'read',
  handler: (req, { store }) => fileContentResponse(store, { projectId: req.project_id, digest: req.digest }),
};

export const fileRoutes = defineRoutes({
  fileCreate: create,
  filesCreate: create,
  fileContent: content,
  filesContent: content,
  filesQueryStats: {
    runs: 'read',
    handler: async (req, { store }) => ({ total_size_bytes: await store.files.totalSize(req.project_id) }),
  },
  // The stored Python client's name for the same question.
  filesStats: {
    runs: 'write',
    handler: async (req, { store }) => ({ total_size_bytes: await store.files.totalSize(req.project_id) }),
  },
  projectStats: {
    runs: 'write',
    handler: async (req, { store }) => {
      const bytes = await store.projects.storageStats({
        projectId: req.project_id,
        traces: req.include_trace_storage_size ?? true,
        objects: req.include_object_storage_size ?? true,
        tables: req.include_table_storage_size ?? true,
        files: req.include_file_storage_size ?? true,
      });
      return {
        trace_storage_size_bytes: bytes.traces,
        objects_storage_size_bytes: bytes.objects,
        tables_storage_size_bytes: bytes.tables,
        files_storage_size_bytes: bytes.files,
      };
    },
  },
});
