import {
  ApiError,
  errorMessages,
  NETWORK_ERROR_MESSAGE,
  NETWORK_ERROR_STATUS,
  notifyUnauthorized,
} from './api';

export interface DownloadOptions {
  /** Session token, sent in the `authorization` header. */
  token: string;
  /** Called with the share received so far (0 to 1) when the server says how big the file is. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface DownloadedFile {
  blob: Blob;
  /** From `content-disposition`, or null when the server named none. */
  filename: string | null;
}

/** The file name in a `content-disposition` header (`filename*=` first), or null. */
export function filenameFromDisposition(header: string | null): string | null {
  if (header === null) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1] !== undefined) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/.exec(header);
  const name = (plain?.[1] ?? plain?.[2])?.trim();
  return name === undefined || name === '' ? null : name;
}

async function readBody(response: Response, onProgress?: (fraction: number) => void) {
  const total = Number(response.headers.get('content-length'));
  if (response.body === null || !onProgress || !(total > 0)) return response.blob();
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress(Math.min(received / total, 1));
  }
  return new Blob(chunks, { type: response.headers.get('content-type') ?? '' });
}

/**
 * Downloads an authenticated file (a plain link cannot send the `authorization` header).
 * Rejects with an {@link ApiError} as `apiRequest` does: 401 also signs the app out.
 */
export async function downloadFile(
  path: string,
  options: DownloadOptions,
): Promise<DownloadedFile> {
  const { token, onProgress, signal } = options;
  const networkError = (cause: unknown) =>
    new ApiError(NETWORK_ERROR_STATUS, [NETWORK_ERROR_MESSAGE], { cause });
  let response: Response;
  try {
    response = await fetch(path, {
      headers: { authorization: token },
      signal,
      credentials: 'same-origin',
    });
  } catch (cause) {
    throw networkError(cause);
  }

  if (!response.ok) {
    if (response.status === 401) notifyUnauthorized(token);
    const text = await response.text().catch(() => '');
    let body: unknown;
    try {
      body = text === '' ? undefined : (JSON.parse(text) as unknown);
    } catch {
      body = undefined;
    }
    throw new ApiError(response.status, errorMessages(response.status, response.statusText, body));
  }

  try {
    const blob = await readBody(response, onProgress);
    return { blob, filename: filenameFromDisposition(response.headers.get('content-disposition')) };
  } catch (cause) {
    throw networkError(cause);
  }
}

/** Hands a downloaded file to the browser to save, through a temporary link. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the address after the click returns.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 1000);
}
