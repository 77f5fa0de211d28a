// The uploads module's public face: the store every part of the shop reads and writes images through.
export { createUploadStore } from './create-upload-store.ts';
export { moveDiskUploads, type MoveResult } from './move-disk-uploads.ts';
export { diskUploadsDir, variantCacheDir, type UploadStore } from './upload-store.ts';
export { sha256Hex } from './database-upload-store.ts';
