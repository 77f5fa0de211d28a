import type { Database } from '../../db/client.ts';
import { createDatabaseUploadStore } from './database-upload-store.ts';
import { createLocalUploadStore, diskUploadsDir, type UploadStore } from './upload-store.ts';

/** The store for a shop: the database on PostgreSQL (shared by a fleet), the disk on the embedded database. */
export function createUploadStore(database: Database, dataDir: string): UploadStore {
  return database.kind === 'postgres' ? createDatabaseUploadStore(database) : createLocalUploadStore(diskUploadsDir(dataDir));
}
