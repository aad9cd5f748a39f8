import toast from 'react-hot-toast';

export const LINK_COPIED = 'Link copied.';
export const LINK_NOT_COPIED = 'Could not copy the link.';

/** Copies this instance's address for `path` (a public address, /@username…) and says so. */
export async function copyLink(path: string): Promise<void> {
  const url = `${window.location.origin}${path}`;
  try {
    await navigator.clipboard.writeText(url);
    toast.success(LINK_COPIED, { id: 'link-copied' });
  } catch {
    // No clipboard (an insecure origin, a refused permission): the address is still shown.
    toast.error(`${LINK_NOT_COPIED} ${url}`, { id: 'link-copied' });
  }
}
