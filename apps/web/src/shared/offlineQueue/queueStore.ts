import type { PollInput } from '@perch/contract';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/**
 * A post written while the server could not be reached, kept on this device until it is sent.
 * Its id is the Idempotency-Key every try sends, so the server makes it once however often the
 * answer is lost.
 */
export interface QueuedPost {
  id: string;
  memberId: string;
  content: string;
  image: File | null;
  altText: string;
  /** The content warning ('' or absent for none; absent on posts queued before warnings). */
  contentWarning?: string;
  /** Whether the image is marked sensitive (absent: not). */
  sensitive?: boolean;
  /** The post's poll (absent or null: none). */
  poll?: PollInput | null;
  /** The post it quotes (absent: none). */
  quoteId?: string;
  /** The album's images in order, uploaded when it is sent (absent on older posts: `image`). */
  media?: QueuedImage[];
  queuedAt: number;
  /** The session it was written in, for the service worker to send it with (absent on old ones). */
  token?: string;
}

/** One image of a queued album: the picked file and its description ('' for none). */
export interface QueuedImage {
  file: File;
  alt: string;
}

/** What a toggle asks for: the state the member chose while the server was out of reach. */
export type ToggleChange =
  | { kind: 'like'; action: 'like' | 'dislike' }
  | { kind: 'bookmark'; action: 'add' | 'remove' }
  | { kind: 'pin'; action: 'pin' | 'unpin' }
  | { kind: 'repost'; action: 'repost' | 'unrepost' }
  | { kind: 'follow'; action: 'follow' | 'unfollow' };

export type ToggleKind = ToggleChange['kind'];

/**
 * A like, bookmark or follow made while the server could not be reached. One per member, kind
 * and target (`key`): a second toggle of the same target undoes the first instead of queueing.
 */
export type QueuedToggle = ToggleChange & {
  key: string;
  memberId: string;
  targetId: string;
  queuedAt: number;
  token?: string;
};

interface OfflineQueueSchema extends DBSchema {
  posts: { key: string; value: QueuedPost; indexes: { byMember: [string, number] } };
  toggles: { key: string; value: QueuedToggle; indexes: { byMember: [string, number] } };
}

let database: Promise<IDBPDatabase<OfflineQueueSchema>> | null = null;

function open(): Promise<IDBPDatabase<OfflineQueueSchema>> {
  // The database keeps its first name: renaming it would lose what waits on devices that have it.
  database ??= openDB<OfflineQueueSchema>('perch-outbox', 2, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) {
        db.createObjectStore('posts', { keyPath: 'id' }).createIndex('byMember', [
          'memberId',
          'queuedAt',
        ]);
      }
      if (oldVersion < 2) {
        db.createObjectStore('toggles', { keyPath: 'key' }).createIndex('byMember', [
          'memberId',
          'queuedAt',
        ]);
      }
    },
    blocking(_current, _next, event) {
      (event.target as IDBDatabase).close();
      database = null;
    },
    terminated() {
      database = null;
    },
  });
  return database;
}

const ofMember = (memberId: string) =>
  IDBKeyRange.bound([memberId, -Infinity], [memberId, Infinity]);

/** The member's queued posts, oldest first (the order they are sent in). */
export async function queuedPosts(memberId: string): Promise<QueuedPost[]> {
  return (await open()).getAllFromIndex('posts', 'byMember', ofMember(memberId));
}

/** Every member's queued posts, each member's oldest first (for the service worker). */
export async function allQueuedPosts(): Promise<QueuedPost[]> {
  return (await open()).getAllFromIndex('posts', 'byMember');
}

export async function queuePost(post: QueuedPost): Promise<void> {
  await (await open()).put('posts', post);
}

export async function dropQueuedPost(id: string): Promise<void> {
  await (await open()).delete('posts', id);
}

export const toggleKey = (memberId: string, kind: ToggleKind, targetId: string): string =>
  `${memberId}:${kind}:${targetId}`;

/** The member's queued toggles, oldest first. */
export async function queuedToggles(memberId: string): Promise<QueuedToggle[]> {
  return (await open()).getAllFromIndex('toggles', 'byMember', ofMember(memberId));
}

/** Every member's queued toggles (for the service worker). */
export async function allQueuedToggles(): Promise<QueuedToggle[]> {
  return (await open()).getAllFromIndex('toggles', 'byMember');
}

/** The toggle of `key` waiting to be sent, if any. */
export async function findQueuedToggle(key: string): Promise<QueuedToggle | undefined> {
  return (await open()).get('toggles', key);
}

/**
 * Queues a toggle. When one of the same target already waits, the new one either undoes it
 * (the opposite action: back to what the server has, so both go) or repeats it (kept once).
 */
export async function queueToggle(toggle: QueuedToggle): Promise<'queued' | 'cancelled' | 'kept'> {
  const transaction = (await open()).transaction('toggles', 'readwrite');
  const waiting = await transaction.store.get(toggle.key);
  let outcome: 'queued' | 'cancelled' | 'kept' = 'queued';
  if (!waiting) await transaction.store.put(toggle);
  else if (waiting.action === toggle.action) outcome = 'kept';
  else {
    await transaction.store.delete(toggle.key);
    outcome = 'cancelled';
  }
  await transaction.done;
  return outcome;
}

/** Drops the toggle `key` queued at `queuedAt`, unless another has taken its place since. */
export async function dropQueuedToggle(key: string, queuedAt: number): Promise<void> {
  const transaction = (await open()).transaction('toggles', 'readwrite');
  const waiting = await transaction.store.get(key);
  if (waiting?.queuedAt === queuedAt) await transaction.store.delete(key);
  await transaction.done;
}
