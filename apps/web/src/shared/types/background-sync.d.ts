// Background Sync (https://wicg.github.io/background-sync/spec/), which TypeScript's libraries
// do not describe yet.
interface SyncManager {
  register(tag: string): Promise<void>;
}

interface ServiceWorkerRegistration {
  /** Absent in browsers without Background Sync. */
  readonly sync?: SyncManager;
}

interface SyncEvent extends ExtendableEvent {
  readonly tag: string;
  readonly lastChance: boolean;
}

interface ServiceWorkerGlobalScopeEventMap {
  sync: SyncEvent;
}
