/// <reference lib="webworker" />
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import {
  cleanupOutdatedCaches,
  createHandlerBoundToURL,
  precacheAndRoute,
} from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst } from 'workbox-strategies';
import {
  OFFLINE_QUEUE_SENT_MESSAGE,
  OFFLINE_QUEUE_SYNC_TAG,
} from './shared/offlineQueue/backgroundSync';
import { sendWaitingFromWorker } from './features/offlineQueue/workerSender';
import { SERVER_PAGES } from './shared/lib/serverPages';

declare let self: ServiceWorkerGlobalScope;

/** Images the media cache keeps (least recently used go first) and for how long. */
const MEDIA_CACHE_ENTRIES = 300;
const MEDIA_CACHE_SECONDS = 30 * 24 * 60 * 60;

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every page of the app is the app shell, except those the server answers itself.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('index.html'), { denylist: [...SERVER_PAGES] }),
);

// API answers are left to the network (no route matches them), so nothing stale is ever shown as
// fresh. Media names never change meaning: kept, bounded, from the cache first.
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/media/'),
  new CacheFirst({
    cacheName: 'perch-media',
    plugins: [
      new ExpirationPlugin({
        maxEntries: MEDIA_CACHE_ENTRIES,
        maxAgeSeconds: MEDIA_CACHE_SECONDS,
        purgeOnQuotaError: true,
      }),
      new CacheableResponsePlugin({ statuses: [200] }),
    ],
  }),
);

// A new version waits until the member presses Reload (features/pwa), which sends this.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

// The connection is back (Background Sync): send what waits in the offline queue, even with no tab
// open, and tell open tabs to look again (some may have gone out before a failure).
self.addEventListener('sync', (event) => {
  if (event.tag !== OFFLINE_QUEUE_SYNC_TAG) return;
  const tellTabs = async () => {
    for (const client of await self.clients.matchAll({ type: 'window' })) {
      client.postMessage({ type: OFFLINE_QUEUE_SENT_MESSAGE });
    }
  };
  event.waitUntil(sendWaitingFromWorker().finally(tellTabs));
});
