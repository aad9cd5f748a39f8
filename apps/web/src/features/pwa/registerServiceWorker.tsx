import toast from 'react-hot-toast';
import { registerSW } from 'virtual:pwa-register';
import { markReloading } from '../../shared/lib/reloading';
import { UpdatePrompt } from './UpdatePrompt';

/** How often an open app asks the server for a new build, besides each start and each focus. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Lets the waiting version take over and reloads once it controls the page. The reload is ours:
 * workbox-window reloads only when it counts the change as an update, which it does not always
 * for a version that arrives during the visit that installed the first one.
 */
function reloadWhenControlled(update: (reloadPage?: boolean) => Promise<void>): Promise<void> {
  markReloading();
  navigator.serviceWorker.addEventListener(
    'controllerchange',
    () => {
      window.location.reload();
    },
    { once: true },
  );
  return update(false);
}

/**
 * Registers the service worker that keeps the app shell offline (vite.config.ts). A new build
 * waits until the member presses Reload in the prompt; until then every tab keeps the version it
 * loaded with.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const updateServiceWorker = registerSW({
    onNeedRefresh() {
      toast(
        (shown) => (
          <UpdatePrompt
            onReload={() => reloadWhenControlled(updateServiceWorker)}
            onDismiss={() => {
              toast.dismiss(shown.id);
            }}
          />
        ),
        { id: 'app-update', duration: Infinity },
      );
    },
    onRegisteredSW(_url, registration) {
      if (!registration) return;
      const check = () => {
        if (navigator.onLine) void registration.update().catch(() => undefined);
      };
      setInterval(check, UPDATE_CHECK_MS);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') check();
      });
    },
  });
}
