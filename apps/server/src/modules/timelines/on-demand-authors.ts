import type { DomainEventPayloads, PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { decodeTime } from 'ulid';
import { idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import * as onDemandRepo from './on-demand.repository';
import { TOP, type RankedEntry } from './timelines.repository';

type Db = Kysely<Database>;

/** The creation time a post id was minted from; 0 below every id. */
const timeOf = (postId: string) => (postId === '' ? 0 : decodeTime(postId));
const later = (a: string, b: string) => (a > b ? a : b);

/** A post just created (its event's payload), with its author's followers count. */
export type NewPost = DomainEventPayloads['post.created'] & { followersCount: number };

/**
 * An entry of Home: a post (`id`), and when a repost brought it, the repost's id (`entryId`, where
 * it stands) and its reposter.
 */
export interface HomeKey {
  id: string;
  entryId?: string;
  repostedBy?: string;
}

/** Where an entry stands in Home: its repost's id, or its post's. */
export const positionOf = (key: HomeKey): string => key.entryId ?? key.id;

/**
 * An author's newest entries read on demand (their posts and reposts), newest first; `complete`
 * when they are all of them.
 */
interface RecentPosts {
  entries: HomeKey[];
  complete: boolean;
}

/** The index of the first entry below `beforeId` in entries sorted newest first. */
function firstBelow(entries: readonly HomeKey[], beforeId: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const entry = entries[middle];
    if (entry !== undefined && positionOf(entry) >= beforeId) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The first `limit` of `keys` and `more` together, both sorted newest first, without repeats: a
 * merge of the two rather than a sort of both (a page of Home and the few entries read on demand
 * within its range).
 */
function mergedNewestFirst(
  keys: readonly HomeKey[],
  more: readonly HomeKey[],
  limit: number,
): HomeKey[] {
  const merged: HomeKey[] = [];
  let k = 0;
  let i = 0;
  while (merged.length < limit && (k < keys.length || i < more.length)) {
    const key = keys[k];
    const other = more[i];
    if (key !== undefined && (other === undefined || positionOf(key) >= positionOf(other))) {
      if (other !== undefined && positionOf(key) === positionOf(other)) i += 1;
      merged.push(key);
      k += 1;
    } else if (other !== undefined) {
      merged.push(other);
      i += 1;
    }
  }
  return merged;
}

/** Two lists of entries sorted newest first, merged, at most `limit`. */
function newestOf(a: readonly HomeKey[], b: readonly HomeKey[], limit: number): HomeKey[] {
  return b.length === 0 ? a.slice(0, limit) : mergedNewestFirst(a, b, limit);
}

/**
 * How long a member's followed authors read on demand are reused. Their own follows and unfollows drop
 * them at once; an author who comes to be read on demand in another process is seen within this time.
 */
const FOLLOWED_TTL_MS = 5_000;

export interface OnDemandAuthorsDeps {
  reads: Db;
  /** Followers from which an author is read on demand. */
  followers: number;
  /** Post ids kept in memory per author read on demand (the timeline's length). */
  length: number;
}

/** What a process keeps of the authors read on demand. */
interface OnDemandState {
  reads: Db;
  followers: number;
  length: number;
  recent: LRUCache<string, RecentPosts>;
  followedAuthors: LRUCache<string, onDemandRepo.OnDemandAuthor[]>;
  /** Bumped when an author comes to be read on demand: lists of followed authors read meanwhile are not kept. */
  marks: number;
  /**
   * Authors whose newest ids are being read, with whether an event changed their posts meanwhile
   * (such a list may predate it: it is used, not kept). Only reads in flight are tracked.
   */
  reading: Map<string, { readers: number; changed: boolean }>;
}

function changed(state: OnDemandState, authorId: string): void {
  const read = state.reading.get(authorId);
  if (read) read.changed = true;
}

async function recentOf(
  state: OnDemandState,
  author: onDemandRepo.OnDemandAuthor,
): Promise<RecentPosts> {
  const { recent, reading, length } = state;
  const { user_id: authorId, since } = author;
  const cached = recent.get(authorId);
  if (cached) return cached;
  const read = reading.get(authorId) ?? { readers: 0, changed: false };
  read.readers += 1;
  reading.set(authorId, read);
  let rows: HomeKey[];
  try {
    rows = await entriesBetween(
      state.reads,
      authorId,
      since,
      TOP,
      Number.MAX_SAFE_INTEGER,
      length + 1,
    );
  } finally {
    read.readers -= 1;
    if (read.readers === 0) reading.delete(authorId);
  }
  const list = { entries: rows.slice(0, length), complete: rows.length <= length };
  if (!read.changed) recent.set(authorId, list);
  return list;
}

/** The author's posts and reposts in [fromId, beforeId), newest first, at most `limit`. */
async function entriesBetween(
  reads: Db,
  authorId: string,
  fromId: string,
  beforeId: string,
  beforeTime: number,
  limit: number,
): Promise<HomeKey[]> {
  const [posts, reposts] = await Promise.all([
    onDemandRepo.authorPostsBetween(
      reads,
      authorId,
      timeOf(fromId),
      fromId,
      beforeTime,
      beforeId,
      limit,
    ),
    onDemandRepo.authorRepostsBetween(reads, authorId, fromId, beforeId, limit),
  ]);
  const reposted = reposts.map((row) => ({
    id: row.post_id,
    entryId: row.id,
    repostedBy: authorId,
  }));
  return newestOf(posts, reposted, limit);
}

/** The author's entries in [fromId, beforeId), newest first, at most `limit`. */
async function postsBetween(
  state: OnDemandState,
  author: onDemandRepo.OnDemandAuthor,
  fromId: string,
  beforeId: string,
  beforeTime: number,
  limit: number,
): Promise<HomeKey[]> {
  const from = later(author.since, fromId);
  if (from >= beforeId) return [];
  const { entries, complete } = await recentOf(state, author);
  const found: HomeKey[] = [];
  for (let i = firstBelow(entries, beforeId); i < entries.length && found.length < limit; i += 1) {
    const entry = entries[i];
    if (entry === undefined || positionOf(entry) < from) return found;
    found.push(entry);
  }
  if (found.length === limit || complete) return found;
  // Older than the entries kept: read from the posts and reposts.
  return entriesBetween(state.reads, author.user_id, from, beforeId, beforeTime, limit);
}

/** Adds an entry to its author's kept list, in its place. */
function kept(state: OnDemandState, authorId: string, entry: HomeKey): void {
  changed(state, authorId);
  const list = state.recent.get(authorId);
  if (!list) return;
  list.entries.splice(firstBelow(list.entries, positionOf(entry)), 0, entry);
  if (list.entries.length > state.length) {
    list.entries.length = state.length;
    list.complete = false;
  }
}

/** Takes an entry out of its author's kept list. */
function dropped(state: OnDemandState, authorId: string, position: string): void {
  changed(state, authorId);
  const list = state.recent.get(authorId);
  const at = list ? list.entries.findIndex((entry) => positionOf(entry) === position) : -1;
  if (list && at >= 0) list.entries.splice(at, 1);
}

/** Keeps the authors' newest post ids and members' follows current after `event`. */
function onEvent(state: OnDemandState, event: PublishedEvent): void {
  const { recent, followedAuthors } = state;
  switch (event.type) {
    case 'post.created':
      kept(state, event.payload.authorId, { id: event.payload.postId });
      break;
    case 'post.reposted': {
      const { postId, repostId, userId } = event.payload;
      kept(state, userId, { id: postId, entryId: repostId, repostedBy: userId });
      break;
    }
    case 'post.unreposted':
      dropped(state, event.payload.userId, event.payload.repostId);
      break;
    case 'post.deleted':
      // Reposts of it kept for other authors are left out when Home's page is hydrated.
      dropped(state, event.payload.authorId, event.payload.postId);
      break;
    case 'member.followed':
    case 'member.unfollowed':
      followedAuthors.delete(event.payload.followerId);
      break;
    case 'member.deleted':
      changed(state, event.payload.userId);
      recent.delete(event.payload.userId);
      followedAuthors.delete(event.payload.userId);
      break;
    default:
      break;
  }
}

/**
 * In the consumer's transaction, of new posts (in event order): those left out of followers'
 * timelines, as their author is read on demand or comes to be read on demand with them.
 */
async function onDemandAmong(
  state: OnDemandState,
  trx: Db,
  posts: readonly NewPost[],
): Promise<Set<string>> {
  const answer = new Set<string>();
  if (posts.length === 0) return answer;
  const authors = [...new Set(posts.map((post) => post.authorId))];
  const since = new Map(
    (await onDemandRepo.onDemandSinceAmong(trx, idListValue(trx, authors))).map((row) => [
      row.user_id,
      row.since,
    ]),
  );
  for (const { authorId, postId, followersCount } of posts) {
    const known = since.get(authorId);
    if (known === undefined && followersCount < state.followers) continue;
    answer.add(postId);
    // A post committed after a newer one (PostgreSQL) moves the start back to it.
    if (known !== undefined && postId >= known) continue;
    await onDemandRepo.markOnDemand(trx, authorId, postId);
    since.set(authorId, postId);
    changed(state, authorId);
    state.recent.delete(authorId);
    state.marks += 1;
    state.followedAuthors.clear();
  }
  return answer;
}

/** The authors read on demand the member follows, less those hidden from them. */
async function followedBy(
  state: OnDemandState,
  userId: string,
  hidden: readonly string[],
): Promise<onDemandRepo.OnDemandAuthor[]> {
  let authors = state.followedAuthors.get(userId);
  if (!authors) {
    const before = state.marks;
    authors = await onDemandRepo.followedOnDemandAuthors(state.reads, userId);
    if (state.marks === before) state.followedAuthors.set(userId, authors);
  }
  return hidden.length === 0 ? authors : authors.filter((a) => !hidden.includes(a.user_id));
}

/** The timeline's ranked entries and the on-demand authors' posts from `fromId` on. */
async function withRanked(
  state: OnDemandState,
  entries: readonly RankedEntry[],
  authors: readonly onDemandRepo.OnDemandAuthor[],
  fromId: string,
): Promise<RankedEntry[]> {
  if (authors.length === 0) return [...entries];
  const ids = new Set(entries.map((entry) => entry.id));
  const all = [...entries];
  for (const author of authors) {
    const from = later(author.since, fromId);
    const posts = await onDemandRepo.authorRankedFrom(
      state.reads,
      author.user_id,
      timeOf(from),
      from,
      state.length,
    );
    for (const post of posts) if (!ids.has(post.id)) all.push(post);
  }
  return all;
}

/**
 * Widely followed authors are read on demand rather than pushed (the mix Twitter's home timelines use):
 * once an author has `followers` followers, their new posts are no longer written to every
 * follower's timeline (a post by a member followed by a third of the instance wrote that many
 * rows, and the writer's time for it grows with the instance), and Home merges in the posts of
 * the few such authors the member follows when it is read. Each process keeps those authors'
 * newest post ids, kept current by the events the relay hands on, and for a few seconds which of
 * them each member follows, so a read of Home seldom costs a query more. An author stays read on demand once read on demand (see
 * migration 0016), so their posts are never missed when they fall back below the count.
 */
export function createOnDemandAuthors({ reads, followers, length }: OnDemandAuthorsDeps) {
  const state: OnDemandState = {
    reads,
    followers,
    length,
    recent: new LRUCache<string, RecentPosts>({ max: 1_000 }),
    followedAuthors: new LRUCache<string, onDemandRepo.OnDemandAuthor[]>({
      max: 20_000,
      ttl: FOLLOWED_TTL_MS,
    }),
    marks: 0,
    reading: new Map(),
  };

  return {
    onDemandAmong: (trx: Db, posts: readonly NewPost[]) => onDemandAmong(state, trx, posts),
    followedBy: (userId: string, hidden: readonly string[]) => followedBy(state, userId, hidden),

    /**
     * The newest `limit` of Home in [fromId, beforeId): the timeline's `keys` there and the read on demand
     * authors' posts, newest first.
     */
    async mergeLatest(
      keys: readonly HomeKey[],
      authors: readonly onDemandRepo.OnDemandAuthor[],
      fromId: string,
      beforeId: string,
      beforeTime: number,
      limit: number,
    ): Promise<HomeKey[]> {
      let merged: HomeKey[] | null = null;
      for (const author of authors) {
        const found = await postsBetween(state, author, fromId, beforeId, beforeTime, limit);
        if (found.length > 0) merged = mergedNewestFirst(merged ?? keys, found, limit);
      }
      return merged ?? keys.slice(0, limit);
    },

    withRanked: (
      entries: readonly RankedEntry[],
      authors: readonly onDemandRepo.OnDemandAuthor[],
      fromId: string,
    ) => withRanked(state, entries, authors, fromId),

    /** In a follow's or unfollow's transaction (and again after commit, through the listener). */
    forgetFollows: (userId: string) => state.followedAuthors.delete(userId),

    /** For relay.listen: keeps the authors' newest post ids and members' follows current. */
    listener: (events: readonly PublishedEvent[]): void => {
      for (const event of events) onEvent(state, event);
    },
  };
}

export type OnDemandAuthors = ReturnType<typeof createOnDemandAuthors>;
