let reloading = false;

/**
 * Marks the page as about to reload into a new version. Until then the old service worker
 * answers every fetch, and one that starts meanwhile keeps it running (Chromium lets the new
 * version take over only once the old one is idle), so work for this page's future stops.
 */
export function markReloading(): void {
  reloading = true;
}

export function isReloading(): boolean {
  return reloading;
}
