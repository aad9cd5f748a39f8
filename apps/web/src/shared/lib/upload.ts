import type { MediaPurpose, MediaUploadResponse } from '@perch/contract';
import {
  ApiError,
  errorMessages,
  NETWORK_ERROR_MESSAGE,
  NETWORK_ERROR_STATUS,
  notifyUnauthorized,
  parseResponse,
} from './api';
import { loadSchemas } from './schemas';

export interface UploadImageOptions {
  /** Session token, sent in the `authorization` header. */
  token: string;
  /** `post` images are scaled down to 2048 px; `avatar` ones are cropped square. */
  purpose: MediaPurpose;
  /** Called with the share of the file sent so far, from 0 to 1. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export const MEDIA_UPLOAD_PATH = '/api/media';

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Uploads one image to `POST /api/media` as multipart `file` + `purpose`, reporting progress.
 * Resolves with where the stored image is served; rejects with an {@link ApiError} for every
 * failure (status 0 when no answer came: offline, refused or aborted).
 */
export function uploadImage(file: File, options: UploadImageOptions): Promise<MediaUploadResponse> {
  const { token, purpose, onProgress, signal } = options;
  if (typeof XMLHttpRequest === 'undefined') return uploadWithFetch(file, options);

  return new Promise<MediaUploadResponse>((resolve, reject) => {
    const networkError = (cause?: unknown) =>
      new ApiError(NETWORK_ERROR_STATUS, [NETWORK_ERROR_MESSAGE], { cause });

    if (signal?.aborted) {
      reject(networkError(signal.reason));
      return;
    }

    // Fetched while the file is on its way, ready to check the answer.
    const schemas = loadSchemas();
    schemas.catch(() => undefined);

    const request = new XMLHttpRequest();
    const onAbort = () => {
      request.abort();
    };
    const settle = () => {
      signal?.removeEventListener('abort', onAbort);
    };

    request.open('POST', MEDIA_UPLOAD_PATH);
    request.setRequestHeader('accept', 'application/json');
    request.setRequestHeader('authorization', token);

    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });

    request.addEventListener('load', () => {
      settle();
      const body = parseJson(request.responseText);
      if (request.status < 200 || request.status >= 300) {
        if (request.status === 401) notifyUnauthorized(token);
        reject(
          new ApiError(request.status, errorMessages(request.status, request.statusText, body)),
        );
        return;
      }
      parseResponse(request.status, body, schemas, (s) => s.mediaUploadResponseSchema).then(
        (uploaded) => {
          onProgress?.(1);
          resolve(uploaded);
        },
        reject,
      );
    });
    request.addEventListener('error', () => {
      settle();
      reject(networkError());
    });
    request.addEventListener('timeout', () => {
      settle();
      reject(networkError());
    });
    request.addEventListener('abort', () => {
      settle();
      reject(networkError(signal?.reason));
    });
    signal?.addEventListener('abort', onAbort, { once: true });

    onProgress?.(0);
    request.send(uploadForm(file, purpose));
  });
}

function uploadForm(file: File, purpose: MediaPurpose): FormData {
  const form = new FormData();
  form.append('purpose', purpose);
  form.append('file', file, file.name);
  return form;
}

/**
 * The same upload where there is no XMLHttpRequest (the service worker sending the outbox),
 * through fetch, which reports no progress.
 */
async function uploadWithFetch(
  file: File,
  { token, purpose, signal }: UploadImageOptions,
): Promise<MediaUploadResponse> {
  const schemas = loadSchemas();
  schemas.catch(() => undefined);
  let response: Response;
  try {
    response = await fetch(MEDIA_UPLOAD_PATH, {
      method: 'POST',
      headers: { accept: 'application/json', authorization: token },
      body: uploadForm(file, purpose),
      signal,
    });
  } catch (cause) {
    throw new ApiError(NETWORK_ERROR_STATUS, [NETWORK_ERROR_MESSAGE], { cause });
  }
  const body = parseJson(await response.text());
  if (!response.ok) {
    throw new ApiError(response.status, errorMessages(response.status, response.statusText, body));
  }
  return parseResponse(response.status, body, schemas, (s) => s.mediaUploadResponseSchema);
}
