import toast from 'react-hot-toast';

/** Toasts about what waits on this device for the connection to return. */
export const offlineQueueMessages = {
  toggleQueued: 'No connection: this will be sent when you are back online.',
} as const;

/** Says, once however many toggles wait, that they will go out when the connection returns. */
export function toastToggleQueued(): void {
  toast(offlineQueueMessages.toggleQueued, { id: offlineQueueMessages.toggleQueued });
}
