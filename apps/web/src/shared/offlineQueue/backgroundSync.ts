// The strings keep their first names so that tabs and service workers of an earlier version,
// which may run side by side with this one during an update, still understand each other.

/** The Background Sync tag under which the service worker sends what waits in the offline queue. */
export const OFFLINE_QUEUE_SYNC_TAG = 'perch-outbox';

/** What the service worker tells open tabs once it has sent something from the offline queue. */
export const OFFLINE_QUEUE_SENT_MESSAGE = 'perch-outbox-sent';

const OFFLINE_QUEUE_LOCK = 'perch-outbox';

/**
 * Runs `send` while no other tab (nor the service worker) sends from the offline queue, so a queued
 * item is never sent twice at once: the second sender finds it gone. Runs it directly where
 * Web Locks are missing.
 */
export function withOfflineQueueLock<T>(send: () => Promise<T>): Promise<T> {
  const locks = (globalThis.navigator as Partial<Navigator> | undefined)?.locks;
  return locks ? locks.request(OFFLINE_QUEUE_LOCK, send) : send();
}

/**
 * Asks the browser to wake the service worker once the connection is back (Background Sync),
 * so what waits is sent even if every tab is closed by then. Tabs still send it themselves on
 * `online` and at start where the browser has no Background Sync.
 */
export async function requestBackgroundSync(): Promise<void> {
  if (!('serviceWorker' in navigator)) return;
  try {
    const registration = await navigator.serviceWorker.getRegistration();
    await registration?.sync?.register(OFFLINE_QUEUE_SYNC_TAG);
  } catch {
    // Refused (no permission, private mode): the tabs send it instead.
  }
}
