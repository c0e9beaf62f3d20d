/** Files: content-addressed bytes, stored in chunks (Store.ts). */

export interface FilesStore {
  /** Stores a file's bytes (in the given chunks) unless its digest is already stored. */
  createFile(req: { projectId: string; digest: string; name: string; chunks: Uint8Array[]; createdAt: number }): Promise<void>;
  /** The file's size in bytes, or null when unknown. */
  fileSize(req: { projectId: string; digest: string }): Promise<number | null>;
  /** The file's bytes, chunk by chunk (nothing when unknown), without holding it whole. */
  readFile(req: { projectId: string; digest: string }): AsyncIterable<Uint8Array>;
  /** Sum of the sizes of the project's files. */
  totalSize(projectId: string): Promise<number>;
}
