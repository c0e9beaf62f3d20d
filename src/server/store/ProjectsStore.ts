/** Projects: which exist, their storage sizes, and creating one ahead of its data (Store.ts). */

export interface ProjectSummary {
  projectId: string;
  callCount: number;
  /** Start time of the newest call, epoch microseconds. */
  lastActivity: number | null;
}

/** The parts of a project's data `storageStats` measures. */
export type StoragePart = 'traces' | 'objects' | 'tables' | 'files';

export interface ProjectsStore {
  /** Projects that exist (something was written to them, or they were created), optionally limited to some entities. */
  listProjects(req: { entities: string[] | 'all'; projectIds?: string[] | null }): Promise<ProjectSummary[]>;
  /**
   * Bytes a project's data takes, for `/project/stats`: live calls (their JSON and text payloads,
   * as `storage_size_bytes` counts them), live object versions, stored table rows and files.
   * A part not asked for is 0 and not computed.
   */
  storageStats(req: { projectId: string } & Record<StoragePart, boolean>): Promise<Record<StoragePart, number>>;
  /** Makes the project exist before anything is written to it (W&B `upsertModel`); idempotent. */
  createProject(projectId: string): Promise<void>;
}
