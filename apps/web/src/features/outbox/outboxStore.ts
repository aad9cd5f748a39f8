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
  queuedAt: number;
}

interface OutboxSchema extends DBSchema {
  posts: { key: string; value: QueuedPost; indexes: { byMember: [string, number] } };
}

let database: Promise<IDBPDatabase<OutboxSchema>> | null = null;

function open(): Promise<IDBPDatabase<OutboxSchema>> {
  database ??= openDB<OutboxSchema>('perch-outbox', 1, {
    upgrade(db) {
      db.createObjectStore('posts', { keyPath: 'id' }).createIndex('byMember', [
        'memberId',
        'queuedAt',
      ]);
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

/** The member's queued posts, oldest first (the order they are sent in). */
export async function queuedPosts(memberId: string): Promise<QueuedPost[]> {
  const range = IDBKeyRange.bound([memberId, -Infinity], [memberId, Infinity]);
  return (await open()).getAllFromIndex('posts', 'byMember', range);
}

export async function queuePost(post: QueuedPost): Promise<void> {
  await (await open()).put('posts', post);
}

export async function dropQueuedPost(id: string): Promise<void> {
  await (await open()).delete('posts', id);
}
