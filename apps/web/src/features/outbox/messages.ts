/** Toasts about what waits on this device for the connection to return. */
export const outboxMessages = {
  toggleQueued: 'No connection: this will be sent when you are back online.',
} as const;
