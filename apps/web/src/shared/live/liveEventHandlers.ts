import type { User } from '@perch/contract';
import type { QueryClient } from '@tanstack/react-query';
import type { LiveEvent, LiveEventPayloads, LiveEventType } from './liveEventTypes';
import type { NewPostsStore } from './newPosts';

/** The session record as live events read and change it (the session store fits it). */
export interface LiveSessionStore {
  getSnapshot: () => { session: { token: string; user: User } | null };
  updateUser: (user: User) => void;
}

/** What the live events change: the query cache, the session record and Home's new posts. */
export interface LiveContext {
  queryClient: QueryClient;
  store: LiveSessionStore;
  newPosts: NewPostsStore;
}

/** What a handler gets with its event: the context, and who is signed in with which token. */
export interface LiveHandlerContext extends LiveContext {
  viewer: User;
  token: string;
}

/** The events of the types `K`, each with its own payload. */
export type LiveEventOf<K extends LiveEventType> = {
  [T in K]: { type: T; payload: LiveEventPayloads[T] };
}[K];

// Contravariant: a handler of several event types handles each of them.
export type LiveEventHandler<in K extends LiveEventType> = (
  event: LiveEventOf<K>,
  context: LiveHandlerContext,
) => void;

/** One handler for every event type, so that a new type cannot go unhandled unnoticed. */
export type LiveEventHandlers = { [K in LiveEventType]: LiveEventHandler<K> };

/** The handlers an entity declares for the events about it. */
export type LiveEventHandlersFor<K extends LiveEventType> = Pick<LiveEventHandlers, K>;

/** Runs several entities' handlers of one event type, in the order given. */
export function handleWithEach<K extends LiveEventType>(
  ...handlers: LiveEventHandler<K>[]
): LiveEventHandler<K> {
  return (event, context) => {
    for (const handler of handlers) handler(event, context);
  };
}

/** For an event that changes nothing in this app (the reason is said where it is declared). */
export const ignoreLiveEvent = (): void => undefined;

/**
 * Applies one event of the member's stream to what the app shows. Counts in events are
 * absolute (the value after the change), so they are set, never added: an event about a change
 * this tab already shows (its own like, follow or comment) changes nothing.
 */
export function applyLiveEvent(
  handlers: LiveEventHandlers,
  context: LiveContext,
  event: LiveEvent,
): void {
  const session = context.store.getSnapshot().session;
  if (session === null) return;
  // The handler picked is the one of the event's own type.
  const handle = handlers[event.type] as LiveEventHandler<LiveEventType>;
  handle(event, { ...context, viewer: session.user, token: session.token });
}

/** Everything shown may be out of date (events were missed): fetch it again. */
export function resyncEverything({ queryClient }: Pick<LiveContext, 'queryClient'>): void {
  void queryClient.invalidateQueries();
}
