// Plain names only: no "..", no hidden files, no absolute paths.
const KEY_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/;

/** Whether a stored media object's key is safe to use as a path below the media folder. */
export function isValidMediaKey(key: string): boolean {
  const segments = key.split('/');
  return segments.length <= 8 && segments.every((s) => KEY_SEGMENT.test(s) && !s.includes('..'));
}
