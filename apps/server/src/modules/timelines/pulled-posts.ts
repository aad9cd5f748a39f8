import type { DomainEventPayloads, PublishedEvent } from '@perch/contract';
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import { decodeTime } from 'ulid';
import { idListValue } from '../../platform/db/dialect';
import type { Database } from '../../platform/db/schema';
import * as pulled from './pulled.repository';
import { TOP, type RankedEntry } from './timelines.repository';

type Db = Kysely<Database>;

/** The creation time a post id was minted from; 0 below every id. */
const timeOf = (postId: string) => (postId === '' ? 0 : decodeTime(postId));
const later = (a: string, b: string) => (a > b ? a : b);

/** A post just created (its event's payload), with its author's followers count. */
export type NewPost = DomainEventPayloads['post.created'] & { followersCount: number };

/** An author's newest pulled post ids, newest first; `complete` when they are all of them. */
interface RecentPosts {
  ids: string[];
  complete: boolean;
}

/** The index of the first id below `beforeId` in ids sorted newest first. */
function firstBelow(ids: readonly string[], beforeId: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ids[middle] ?? '') >= beforeId) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The first `limit` of `keys` and `ids` together, both sorted newest first, without repeats: a
 * merge of the two rather than a sort of both (a page of Home and the few pulled posts within its
 * range).
 */
function mergedNewestFirst(
  keys: readonly { id: string }[],
  ids: readonly string[],
  limit: number,
): { id: string }[] {
  const merged: { id: string }[] = [];
  let k = 0;
  let i = 0;
  while (merged.length < limit && (k < keys.length || i < ids.length)) {
    const key = keys[k];
    const id = ids[i];
    if (key !== undefined && (id === undefined || key.id >= id)) {
      if (key.id === id) i += 1;
      merged.push(key);
      k += 1;
    } else if (id !== undefined) {
      merged.push({ id });
      i += 1;
    }
  }
  return merged;
}

/**
 * How long a member's followed pulled authors are reused. Their own follows and unfollows drop
 * them at once; an author who becomes pulled in another process is seen within this time.
 */
const FOLLOWED_TTL_MS = 5_000;

export interface PulledPostsDeps {
  reads: Db;
  /** Followers from which an author is pulled. */
  followers: number;
  /** Post ids kept in memory per pulled author (the timeline's length). */
  length: number;
}

/**
 * Widely followed authors are pulled rather than pushed (the mix Twitter's home timelines use):
 * once an author has `followers` followers, their new posts are no longer written to every
 * follower's timeline (a post by a member followed by a third of the instance wrote that many
 * rows, and the writer's time for it grows with the instance), and Home merges in the posts of
 * the few such authors the member follows when it is read. Each process keeps those authors'
 * newest post ids, kept current by the events the relay hands on, and for a few seconds which of
 * them each member follows, so a read of Home seldom costs a query more. An author stays pulled once pulled (see
 * migration 0016), so their posts are never missed when they fall back below the count.
 */
export function createPulledPosts({ reads, followers, length }: PulledPostsDeps) {
  const recent = new LRUCache<string, RecentPosts>({ max: 1_000 });
  const followedAuthors = new LRUCache<string, pulled.PulledAuthor[]>({
    max: 20_000,
    ttl: FOLLOWED_TTL_MS,
  });
  // Bumped when an author becomes pulled: lists of followed authors read meanwhile are not kept.
  let marks = 0;
  // Authors whose newest ids are being read, with whether an event changed their posts meanwhile
  // (such a list may predate it: it is used, not kept). Only reads in flight are tracked.
  const reading = new Map<string, { readers: number; changed: boolean }>();
  const changed = (authorId: string) => {
    const read = reading.get(authorId);
    if (read) read.changed = true;
  };

  async function recentOf(author: pulled.PulledAuthor): Promise<RecentPosts> {
    const { user_id: authorId, since } = author;
    const cached = recent.get(authorId);
    if (cached) return cached;
    const read = reading.get(authorId) ?? { readers: 0, changed: false };
    read.readers += 1;
    reading.set(authorId, read);
    let rows: { id: string }[];
    try {
      rows = await pulled.authorPostsBetween(
        reads,
        authorId,
        timeOf(since),
        since,
        Number.MAX_SAFE_INTEGER,
        TOP,
        length + 1,
      );
    } finally {
      read.readers -= 1;
      if (read.readers === 0) reading.delete(authorId);
    }
    const list = {
      ids: rows.slice(0, length).map((row) => row.id),
      complete: rows.length <= length,
    };
    if (!read.changed) recent.set(authorId, list);
    return list;
  }

  /** The author's post ids in [fromId, beforeId), newest first, at most `limit`. */
  async function postsBetween(
    author: pulled.PulledAuthor,
    fromId: string,
    beforeId: string,
    beforeTime: number,
    limit: number,
  ): Promise<string[]> {
    const from = later(author.since, fromId);
    if (from >= beforeId) return [];
    const { ids, complete } = await recentOf(author);
    const found: string[] = [];
    for (let i = firstBelow(ids, beforeId); i < ids.length && found.length < limit; i += 1) {
      const id = ids[i] ?? '';
      if (id < from) return found;
      found.push(id);
    }
    if (found.length === limit || complete) return found;
    // Older than the ids kept: read from the posts.
    const rows = await pulled.authorPostsBetween(
      reads,
      author.user_id,
      timeOf(from),
      from,
      beforeTime,
      beforeId,
      limit,
    );
    return rows.map((row) => row.id);
  }

  function onEvent(event: PublishedEvent): void {
    switch (event.type) {
      case 'post.created': {
        const { authorId, postId } = event.payload;
        changed(authorId);
        const list = recent.get(authorId);
        if (!list) break;
        list.ids.splice(firstBelow(list.ids, postId), 0, postId);
        if (list.ids.length > length) {
          list.ids.length = length;
          list.complete = false;
        }
        break;
      }
      case 'post.deleted': {
        changed(event.payload.authorId);
        const list = recent.get(event.payload.authorId);
        const at = list ? list.ids.indexOf(event.payload.postId) : -1;
        if (list && at >= 0) list.ids.splice(at, 1);
        break;
      }
      case 'member.followed':
      case 'member.unfollowed':
        followedAuthors.delete(event.payload.followerId);
        break;
      case 'member.deleted':
        changed(event.payload.userId);
        recent.delete(event.payload.userId);
        followedAuthors.delete(event.payload.userId);
        break;
      default:
        break;
    }
  }

  return {
    /**
     * In the consumer's transaction, of new posts (in event order): those left out of followers'
     * timelines, as their author is pulled or becomes pulled with them.
     */
    async pulledAmong(trx: Db, posts: readonly NewPost[]): Promise<Set<string>> {
      const answer = new Set<string>();
      if (posts.length === 0) return answer;
      const authors = [...new Set(posts.map((post) => post.authorId))];
      const since = new Map(
        (await pulled.pulledSinceAmong(trx, idListValue(trx, authors))).map((row) => [
          row.user_id,
          row.since,
        ]),
      );
      for (const { authorId, postId, followersCount } of posts) {
        const known = since.get(authorId);
        if (known === undefined && followersCount < followers) continue;
        answer.add(postId);
        // A post committed after a newer one (PostgreSQL) moves the start back to it.
        if (known !== undefined && postId >= known) continue;
        await pulled.markPulled(trx, authorId, postId);
        since.set(authorId, postId);
        changed(authorId);
        recent.delete(authorId);
        marks += 1;
        followedAuthors.clear();
      }
      return answer;
    },

    /** The pulled authors the member follows, less those hidden from them. */
    async followedBy(userId: string, hidden: readonly string[]): Promise<pulled.PulledAuthor[]> {
      let authors = followedAuthors.get(userId);
      if (!authors) {
        const before = marks;
        authors = await pulled.followedPulledAuthors(reads, userId);
        if (marks === before) followedAuthors.set(userId, authors);
      }
      return hidden.length === 0 ? authors : authors.filter((a) => !hidden.includes(a.user_id));
    },

    /**
     * The newest `limit` of Home in [fromId, beforeId): the timeline's `keys` there and the pulled
     * authors' posts, newest first.
     */
    async mergeLatest(
      keys: readonly { id: string }[],
      authors: readonly pulled.PulledAuthor[],
      fromId: string,
      beforeId: string,
      beforeTime: number,
      limit: number,
    ): Promise<{ id: string }[]> {
      let merged: { id: string }[] | null = null;
      for (const author of authors) {
        const ids = await postsBetween(author, fromId, beforeId, beforeTime, limit);
        if (ids.length > 0) merged = mergedNewestFirst(merged ?? keys, ids, limit);
      }
      return merged ?? keys.slice(0, limit);
    },

    /** The timeline's ranked entries and the pulled authors' posts from `fromId` on. */
    async withRanked(
      entries: readonly RankedEntry[],
      authors: readonly pulled.PulledAuthor[],
      fromId: string,
    ): Promise<RankedEntry[]> {
      if (authors.length === 0) return [...entries];
      const ids = new Set(entries.map((entry) => entry.id));
      const all = [...entries];
      for (const author of authors) {
        const from = later(author.since, fromId);
        const posts = await pulled.authorRankedFrom(
          reads,
          author.user_id,
          timeOf(from),
          from,
          length,
        );
        for (const post of posts) if (!ids.has(post.id)) all.push(post);
      }
      return all;
    },

    /** In a follow's or unfollow's transaction (and again after commit, through the listener). */
    forgetFollows: (userId: string) => followedAuthors.delete(userId),

    /** For relay.listen: keeps the authors' newest post ids and members' follows current. */
    listener: (events: readonly PublishedEvent[]): void => {
      for (const event of events) onEvent(event);
    },
  };
}

export type PulledPosts = ReturnType<typeof createPulledPosts>;
