import {
  ErrorMessages,
  FOLLOWING_LIMIT_REACHED,
  FOLLOWING_MAX,
  type FollowResponse,
  type PageQuery,
  type User,
  type UserEditBody,
  type UserPage,
  type UserSearchQuery,
  type UserStub,
} from '@perch/contract';
import type { Kysely } from 'kysely';
import type { Viewer } from '../../lib/viewer';
import { isPostgres, sqlBoolean } from '../../platform/db/dialect';
import type { Database, NewUser, UserRow } from '../../platform/db/schema';
import type { EventRecorder, Transact } from '../../platform/events/transactions';
import { decodeCursor, pageOf } from '../../lib/cursor';
import { badRequest, notFound } from '../../lib/errors';
import type { MediaService } from '../media/media.service';
import type { HiddenMembers } from '../safety/hidden-members';
import type { TimelinesService } from '../timelines/timelines.service';
import type { KeptFollowees } from './kept-followees';
import type { MemberCards } from './member-cards';
import type { MemberSearchPages } from './member-search-pages';
import type { MemberStubs } from './member-stubs';
import { toUser } from './users.mapper';
import * as search from './member-search.repository';
import * as repo from './users.repository';

type Db = Kysely<Database>;
type ProfileChanges = UserEditBody['userData'];

function listed(row: repo.ListedUserRow, viewer: Viewer | null): User {
  return toUser(row, {
    includeEmail: viewer?.id === row.id,
    followedByViewer: viewer ? sqlBoolean(row.followed) : undefined,
  });
}

export interface UsersServiceDeps {
  db: Db;
  /**
   * Where profiles, searches and suggestions are read (a read-only connection on SQLite, where
   * they never wait behind a write transaction); db by default.
   */
  reads?: Db;
  transact: Transact;
  media: Pick<MediaService, 'assertUsable'>;
  /** Home timelines follow follows (in the follow's transaction). */
  timelines?: Pick<TimelinesService, 'followed' | 'unfollowed'>;
  /** Blocks keep members apart: no follow, no profile, no place in search or suggestions. */
  hidden: Pick<HiddenMembers, 'relationsOf' | 'blockedFor' | 'isBlockedEitherWay'>;
  /** Members as other records list them (followers, following). */
  stubs: Pick<MemberStubs, 'of' | 'idOf' | 'forget' | 'forgetMember'>;
  /** Members as member search lists them. */
  cards: Pick<MemberCards, 'listed' | 'forget' | 'forgetAll'>;
  /** Whom readers follow, for the lists' flags. */
  followees: Pick<KeptFollowees, 'among' | 'forget'>;
  /** SQLite: member search's first pages. */
  searchPages?: Pick<MemberSearchPages, 'firstPage' | 'forgetAll'>;
}

/**
 * Past this many members holding the text's trigrams, the text is common enough that reading
 * members in username order fills a page sooner than fetching and sorting every candidate.
 */
const TRIGRAM_CANDIDATES_MAX = 500;
const MEMBER_COUNT_MAX_AGE_MS = 60_000;
/** Below this share of members unfollowed, explore is read author by author. */
const FEW_UNFOLLOWED_SHARE = 0.25;

export function createUsersService({
  db,
  reads = db,
  transact,
  media,
  timelines,
  hidden,
  stubs,
  cards,
  followees,
  searchPages,
}: UsersServiceDeps) {
  /**
   * Where member search finds its candidates (see search.CandidateSource). SQLite only:
   * PostgreSQL's planner makes the same choice from its statistics. Two characters are looked up
   * among the members' pairs of characters, three among their triples. Longer text goes through
   * the trigram index unless so many members hold it that reading them in username order fills a
   * page sooner; so does a single character.
   */
  async function candidateSource(text: string): Promise<search.CandidateSource> {
    if (isPostgres(db)) return 'order';
    if (search.isPair(text)) return 'pairs';
    if (search.isTriple(text)) return 'triples';
    if (!search.hasTrigrams(text)) return 'order';
    const candidates = await search.countTrigramMatches(reads, text, TRIGRAM_CANDIDATES_MAX);
    return candidates < TRIGRAM_CANDIDATES_MAX ? 'trigrams' : 'order';
  }

  async function listedById(id: string, viewer: Viewer, trx: Db = db): Promise<User> {
    const row = await repo.findListedUserById(trx, id, viewer.id);
    if (!row) throw notFound(ErrorMessages.userNotFound);
    return listed(row, viewer);
  }

  /**
   * Locks both members' rows, in id order (as every change between two members takes them: a
   * follow and a block racing queue up instead of deadlocking or crossing); false when either
   * is gone.
   */
  async function lockPair(trx: Db, a: string, b: string): Promise<boolean> {
    for (const id of [a, b].sort()) {
      if (!(await repo.lockUser(trx, id))) return false;
    }
    return true;
  }

  /** Ends a follow (its row, both counters, the follower's timeline) and records it. */
  async function endFollow(
    trx: Db,
    events: EventRecorder,
    followerId: string,
    followeeId: string,
  ): Promise<boolean> {
    if (!(await repo.deleteFollow(trx, followerId, followeeId))) return false;
    await repo.adjustFollowCount(trx, followerId, 'following_count', -1);
    await repo.adjustFollowCount(trx, followeeId, 'followers_count', -1);
    await timelines?.unfollowed(trx, followerId, followeeId);
    const [follower, followee] = await Promise.all([
      repo.findUserById(trx, followerId),
      repo.findUserById(trx, followeeId),
    ]);
    events.record({
      type: 'member.unfollowed',
      payload: {
        followerId,
        followeeId,
        followersCount: followee?.followers_count ?? 0,
        followingCount: follower?.following_count ?? 0,
      },
    });
    return true;
  }

  /** Follow and unfollow share everything but the direction of the change. */
  async function changeFollow(
    viewer: Viewer,
    userId: string,
    follow: boolean,
  ): Promise<FollowResponse> {
    if (userId === viewer.id) throw notFound(ErrorMessages.followSelf);
    const answer = await transact(async (trx, events) => {
      // Checked with both rows held: a block committing meanwhile is seen, or waits for this.
      if (
        !(await lockPair(trx, viewer.id, userId)) ||
        (await hidden.isBlockedEitherWay(trx, viewer.id, userId))
      ) {
        throw notFound(ErrorMessages.userNotFound);
      }
      const changed = follow
        ? await repo.insertFollow(trx, viewer.id, userId, Date.now())
        : await repo.deleteFollow(trx, viewer.id, userId);
      if (!changed) {
        throw badRequest(follow ? ErrorMessages.alreadyFollowing : ErrorMessages.notFollowing);
      }
      const delta = follow ? 1 : -1;
      // Rows are always updated in id order so two members following each other cannot deadlock.
      const updates = [
        { id: viewer.id, column: 'following_count' as const },
        { id: userId, column: 'followers_count' as const },
      ].sort((a, b) => (a.id < b.id ? -1 : 1));
      for (const { id, column } of updates) {
        if (follow && column === 'following_count') {
          const within = await repo.incrementFollowingWithin(trx, id, FOLLOWING_MAX);
          if (!within) throw badRequest(FOLLOWING_LIMIT_REACHED);
        } else {
          await repo.adjustFollowCount(trx, id, column, delta);
        }
      }
      if (follow) await timelines?.followed(trx, viewer.id, userId);
      else await timelines?.unfollowed(trx, viewer.id, userId);
      const user = await listedById(viewer.id, viewer, trx);
      const followUser = await listedById(userId, viewer, trx);
      events.record({
        type: follow ? 'member.followed' : 'member.unfollowed',
        payload: {
          followerId: viewer.id,
          followeeId: userId,
          followersCount: followUser.followersCount,
          followingCount: user.followingCount,
        },
      });
      return { user, followUser };
    });
    forgetFollowsOf(viewer.id, userId);
    return answer;
  }

  /** After a change between two members committed: this process reads them again at once. */
  function forgetFollowsOf(followerId: string, followeeId: string): void {
    cards.forget(followerId);
    cards.forget(followeeId);
    followees.forget(followerId);
  }

  /** Members counted at most this long ago serve to weigh explore's reading (see below). */
  let memberCount: { value: number; at: number } | null = null;
  async function membersNow(): Promise<number> {
    if (memberCount === null || Date.now() - memberCount.at > MEMBER_COUNT_MAX_AGE_MS) {
      memberCount = { value: await repo.countMembers(reads), at: Date.now() };
    }
    return memberCount.value;
  }

  return {
    /**
     * Whether the member follows nearly every other member, so that few authors are left for
     * explore: reading newest posts until a page of theirs turns up would then read most posts.
     */
    async followsNearlyEveryone(viewerId: string): Promise<boolean> {
      const [row] = await repo.followingCountOf(reads, viewerId);
      const members = await membersNow();
      const unfollowed = members - 1 - (row?.following_count ?? 0);
      return unfollowed < members * FEW_UNFOLLOWED_SHARE;
    },

    /** The member's id, regardless of the name's case; null when there is no such member. */
    idOf: (username: string): Promise<string | null> => stubs.idOf(username),
    /** Drops what this process keeps of a member whose account was just deleted. */
    forgetMember: (userId: string): void => {
      stubs.forgetMember(userId);
      searchPages?.forgetAll();
      followees.forget(userId);
      // Every member they followed or were followed by counts one fewer.
      cards.forgetAll();
    },
    /** After a post of the member's was written or deleted: their count, at once. */
    forgetPostsCount: (userId: string): void => {
      cards.forget(userId);
    },
    /** After the follows between two members ended (a block): both ways, at once. */
    forgetFollowsBetween: (a: string, b: string): void => {
      forgetFollowsOf(a, b);
      forgetFollowsOf(b, a);
    },

    /** The members named (lower-cased usernames), read in the caller's transaction. */
    namedMembers: async (trx: Db, lowerNames: readonly string[]) =>
      lowerNames.length === 0 ? [] : repo.findMembersByLowerNames(trx, lowerNames),

    /** The member's own record, with what only they may read (sign-in, /auth/me). */
    recordById: (id: string): Promise<UserRow | undefined> => repo.findUserById(db, id),
    recordByUsername: (username: string): Promise<UserRow | undefined> =>
      repo.findUserByUsername(db, username),
    register: (user: NewUser): Promise<UserRow> => repo.insertUser(db, user),
    /** In the caller's transaction; false when the hash is no longer `expected`. */
    replacePasswordHash: (trx: Db, id: string, expected: string, hash: string) =>
      repo.replacePasswordHash(trx, id, expected, hash),

    async stubById(id: string): Promise<UserStub | undefined> {
      const [stub] = await stubs.of([id]);
      return stub;
    },
    /** Up to `limit` of the members who follow `userId`, leaving out `exceptId`. */
    followerStubs: async (userId: string, limit: number, exceptId: string | null = null) =>
      stubs.of(await repo.listFollowerIds(reads, { followeeId: userId, exceptId, limit })),
    /** Up to `limit` of the members `userId` follows. */
    followingStubs: async (userId: string, limit: number) =>
      stubs.of(await repo.listFollowingIds(reads, { followerId: userId, limit })),

    /** Of `candidateIds`, those who follow `userId`. */
    followersAmong: async (userId: string, candidateIds: readonly string[]) =>
      new Set(await repo.followersAmong(db, userId, candidateIds)),
    /** Of `userIds`, those whom `followerId` follows. */
    followeesAmong: async (followerId: string, userIds: readonly string[]) =>
      new Set(await repo.followeesAmong(db, followerId, userIds)),

    /**
     * In a block's transaction: holds both members' rows (see lockPair); false when either is
     * gone.
     */
    lockPair,

    /**
     * In a block's transaction (the pair locked): ends the follows between the two, both ways,
     * each as an unfollow would.
     */
    async endFollowsBetween(trx: Db, events: EventRecorder, a: string, b: string): Promise<void> {
      await endFollow(trx, events, a, b);
      await endFollow(trx, events, b, a);
    },

    /** Members as lists show them to the viewer (the blocked and muted lists), in this order. */
    listedFor: (rows: readonly UserRow[], viewer: Viewer): User[] =>
      rows.map((row) => toUser(row, { includeEmail: row.id === viewer.id })),

    async search(viewer: Viewer | null, query: UserSearchQuery): Promise<UserPage> {
      const after = query.cursor ? decodeCursor(query.cursor, ['string'] as const)[0] : null;
      const text = query.q?.trim() ?? '';
      const exceptIds = await hidden.blockedFor(viewer?.id ?? null);
      const via = await candidateSource(text);
      const read = () =>
        search.searchUsers(reads, {
          exceptIds,
          text,
          afterUsername: after,
          limit: query.limit,
          via,
        });
      const found =
        searchPages && after === null && exceptIds.length === 0
          ? await searchPages.firstPage(`${via}:${query.limit}:${text.toLowerCase()}`, read)
          : await read();
      const { items, nextCursor } = pageOf(found, query.limit, (row) => [row.lower_username]);
      const ids = items.map((row) => row.id);
      const followed = viewer ? await followees.among(viewer.id, ids) : new Set<string>();
      return { users: await cards.listed(ids, viewer?.id ?? null, followed), nextCursor };
    },

    async suggestions(viewer: Viewer, query: PageQuery): Promise<UserPage> {
      const after = query.cursor ? decodeCursor(query.cursor, ['count', 'string'] as const) : null;
      const rows = await repo.suggestUsers(reads, {
        viewerId: viewer.id,
        after,
        limit: query.limit,
        exceptIds: await hidden.blockedFor(viewer.id),
      });
      const { items, nextCursor } = pageOf(rows, query.limit, (row) => [
        row.followers_count,
        row.id,
      ]);
      return { users: items.map((row) => toUser(row, { followedByViewer: false })), nextCursor };
    },

    /**
     * A member who blocked the viewer does not exist for them; one the viewer blocked still
     * answers (so they can unblock), marked viewerBlocks.
     */
    async profile(username: string, viewer: Viewer | null): Promise<{ user: User }> {
      const row = await repo.findListedUserByUsername(reads, username, viewer?.id ?? null);
      if (!row) throw notFound(ErrorMessages.userNotFound);
      if (!viewer) return { user: listed(row, viewer) };
      const relations = await hidden.relationsOf(viewer.id);
      if (relations.blockedBy.has(row.id)) throw notFound(ErrorMessages.userNotFound);
      return {
        user: {
          ...listed(row, viewer),
          viewerBlocks: relations.blocking.has(row.id),
          viewerMutes: relations.muting.has(row.id),
        },
      };
    },

    async edit(viewer: Viewer, changes: ProfileChanges): Promise<{ user: User }> {
      await transact(async (trx, events) => {
        const current = await repo.findUserById(trx, viewer.id);
        if (!current) throw notFound(ErrorMessages.notRegistered);
        if (changes.username !== undefined && changes.username !== current.username) {
          throw notFound(ErrorMessages.usernameImmutable);
        }
        const avatarUrl = changes.avatarURL === undefined ? current.avatar_url : changes.avatarURL;
        const avatarChanged = avatarUrl !== current.avatar_url;
        if (avatarChanged) await media.assertUsable(trx, viewer.id, avatarUrl);
        await repo.updateProfile(trx, viewer.id, {
          first_name: changes.firstName,
          last_name: changes.lastName,
          bio: changes.bio ?? current.bio,
          avatar_url: avatarUrl,
          updated_at: Date.now(),
        });
        events.record({
          type: 'profile.edited',
          payload: {
            userId: viewer.id,
            previousAvatarURL: avatarChanged ? current.avatar_url : null,
          },
        });
      });
      stubs.forget(viewer.id);
      cards.forget(viewer.id);
      searchPages?.forgetAll();
      return { user: await listedById(viewer.id, viewer) };
    },

    follow: (viewer: Viewer, userId: string) => changeFollow(viewer, userId, true),
    unfollow: (viewer: Viewer, userId: string) => changeFollow(viewer, userId, false),
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
