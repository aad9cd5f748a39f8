import {
  mediaUploadResponseSchema,
  type MediaPurpose,
  type MediaUploadResponse,
} from '@perch/contract';
import {
  ApiError,
  errorMessages,
  NETWORK_ERROR_MESSAGE,
  NETWORK_ERROR_STATUS,
  notifyUnauthorized,
  UNEXPECTED_RESPONSE_MESSAGE,
} from './api';

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

  return new Promise<MediaUploadResponse>((resolve, reject) => {
    const networkError = (cause?: unknown) =>
      new ApiError(NETWORK_ERROR_STATUS, [NETWORK_ERROR_MESSAGE], { cause });

    if (signal?.aborted) {
      reject(networkError(signal.reason));
      return;
    }

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
      const parsed = mediaUploadResponseSchema.safeParse(body);
      if (!parsed.success) {
        reject(
          new ApiError(request.status, [UNEXPECTED_RESPONSE_MESSAGE], { cause: parsed.error }),
        );
        return;
      }
      onProgress?.(1);
      resolve(parsed.data);
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

    const form = new FormData();
    form.append('purpose', purpose);
    form.append('file', file, file.name);
    onProgress?.(0);
    request.send(form);
  });
}
