import type { UploadResponse } from '@shop/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST upload (multipart, field `file`): the stored WebP's address. */
export function uploadImage(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.post<UploadResponse>('upload', form);
}

export function useUploadImage() {
  return useMutation({ mutationFn: uploadImage });
}
