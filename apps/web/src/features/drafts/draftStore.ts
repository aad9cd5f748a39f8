import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

/** One image of a drafted album: the picked File, or (Edit Post) an image the post already holds. */
export type DraftImage = { id: string; alt: string } & ({ file: File } | { url: string });

/** A drafted poll: its options as typed, how long it stays open (seconds), one or several choices. */
export interface DraftPoll {
  options: string[];
  expiresIn: number;
  multiple: boolean;
}

/**
 * A post being written, kept on this device as the member types: the new-post box's drafts (any
 * number) and one per post in Edit Post. Images are kept as the picked File itself.
 */
export interface Draft {
  id: string;
  memberId: string;
  /** The post an Edit Post draft belongs to; null for a new post. */
  postId: string | null;
  text: string;
  image: File | null;
  /** The image's description ('' for none). */
  altText: string;
  /** Edit Post only: the member removed the post's images. */
  removeImage: boolean;
  /** The content warning, null while its field is closed (absent on drafts kept before it). */
  contentWarning?: string | null;
  /** Whether the image is marked sensitive (absent: not). */
  sensitive?: boolean;
  /** The album in order, each image with its description (absent: none, or a draft older than albums). */
  media?: DraftImage[];
  /** The new post's poll while its fields are open (absent: none). */
  poll?: DraftPoll | null;
  updatedAt: number;
}

interface DraftsSchema extends DBSchema {
  drafts: {
    key: string;
    value: Draft;
    indexes: { byMember: [string, number] };
  };
}

const DATABASE = 'perch-drafts';
/** New-post drafts a member keeps; saving one more drops the oldest. */
export const DRAFTS_MAX = 20;

let database: Promise<IDBPDatabase<DraftsSchema>> | null = null;

function open(): Promise<IDBPDatabase<DraftsSchema>> {
  database ??= openDB<DraftsSchema>(DATABASE, 1, {
    upgrade(db) {
      const drafts = db.createObjectStore('drafts', { keyPath: 'id' });
      drafts.createIndex('byMember', ['memberId', 'updatedAt']);
    },
    // Another tab of a newer build upgrades the database (or it is deleted): let go of it, and
    // open it again on the next use.
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

/** The id of the one Edit Post draft of a post. */
export const editDraftId = (memberId: string, postId: string) => `edit:${memberId}:${postId}`;

export const newDraftId = () => `new:${crypto.randomUUID()}`;

/** The member's new-post drafts, most recently changed first. */
export async function listDrafts(memberId: string): Promise<Draft[]> {
  const db = await open();
  const range = IDBKeyRange.bound([memberId, -Infinity], [memberId, Infinity]);
  const drafts = await db.getAllFromIndex('drafts', 'byMember', range);
  return drafts.filter((draft) => draft.postId === null).reverse();
}

export async function readDraft(id: string): Promise<Draft | undefined> {
  return (await open()).get('drafts', id);
}

export async function saveDraft(draft: Draft): Promise<void> {
  const db = await open();
  await db.put('drafts', draft);
  if (draft.postId !== null) return;
  const drafts = await listDrafts(draft.memberId);
  await Promise.all(drafts.slice(DRAFTS_MAX).map((old) => db.delete('drafts', old.id)));
}

export async function deleteDraft(id: string): Promise<void> {
  await (await open()).delete('drafts', id);
}
