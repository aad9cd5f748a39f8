import type { PublishedEvent } from '@perch/contract';
import type { FastifyBaseLogger } from 'fastify';
import { createTimelineBuilder, trimTimeline } from './build';
import { createTimelineWrites } from './fan-out';
import { createHomeReads } from './home';
import { createOnDemandAuthors } from './on-demand-authors';
import type { Db } from './timelines.deps';
import * as repo from './timelines.repository';

export type { TimelineKey, TimelinePage } from './home';

export interface TimelinesServiceDeps {
  db: Db;
  /** Where hot reads go (a read-only connection on SQLite). */
  reads?: Db;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Entries kept per member: the newest posts of their Home. */
  length: number;
  /** How long a member's trending order is reused before it is ranked again. */
  rankingTtlMs?: number;
  /** Followers from which an author's posts are read into Home rather than written out. */
  pullFollowers: number;
}

/**
 * Home timelines, written on post (the design of Mastodon's home feeds): each member who reads Home
 * keeps the ids of its newest posts. The author's own timeline gains a post in the post's
 * transaction, followers' timelines through the `timelines` consumer after commit; following and
 * unfollowing change the member's own timeline at once, and the consumer applies them again, so
 * that on PostgreSQL a post and a follow committed side by side still meet. Deleting a post or a
 * member removes entries through foreign keys. A timeline is built on its member's first read of
 * Home (that read is answered by the query over follows) and dropped after long disuse.
 */
export function createTimelinesService({
  db,
  reads = db,
  log,
  length,
  rankingTtlMs = 10_000,
  pullFollowers,
}: TimelinesServiceDeps) {
  const onDemand = createOnDemandAuthors({ reads, followers: pullFollowers, length });
  const builder = createTimelineBuilder({ db, log, length });
  const home = createHomeReads({
    db,
    reads,
    log,
    length,
    rankingTtlMs,
    onDemand,
    buildSoon: builder.buildSoon,
  });
  const { consumer, followed } = createTimelineWrites({ length, onDemand });

  return {
    consumer,
    page: home.page,

    /** In the post's transaction: the author sees their post on Home at once. */
    posted: (trx: Db, authorId: string, postId: string) =>
      repo.addToOwnTimeline(trx, authorId, postId),
    /** In the follow's transaction. */
    followed,
    /** In the unfollow's transaction. */
    unfollowed: (trx: Db, followerId: string, followeeId: string) => {
      onDemand.forgetFollows(followerId);
      return repo.removeAuthor(trx, followerId, followeeId);
    },

    /**
     * For relay.listen: a member's trending order is ranked again after their own changes (a like,
     * a follow, a post), so that they see them at once; others' likes show within rankingTtlMs.
     */
    listener: (events: readonly PublishedEvent[]): void => {
      onDemand.listener(events);
      for (const event of events) {
        switch (event.type) {
          case 'post.liked':
          case 'post.unliked':
            home.forgetRanking(event.payload.userId);
            break;
          case 'member.followed':
          case 'member.unfollowed':
            home.forgetRanking(event.payload.followerId);
            break;
          case 'post.created':
            home.forgetRanking(event.payload.authorId);
            break;
          case 'member.deleted':
            // Their timeline went with them; others' orders may hold their posts.
            home.forgetMember(event.payload.userId);
            break;
          default:
            break;
        }
      }
    },

    /** Trims every timeline to its length (scheduled). */
    async trimAll(): Promise<void> {
      let after = '';
      for (;;) {
        const owners = await repo.listTimelineOwners(db, after, 200);
        for (const userId of owners) {
          await db.transaction().execute((trx) => trimTimeline(trx, userId, length));
        }
        const last = owners[owners.length - 1];
        if (last === undefined || owners.length < 200) return;
        after = last;
      }
    },

    /** Drops the timelines of members who have not read Home since `before` (scheduled). */
    dropIdle: (before: number) => repo.dropTimelinesReadBefore(db, before),

    /** Waits for timelines being built (tests, shutdown). */
    idle: builder.idle,
  };
}

export type TimelinesService = ReturnType<typeof createTimelinesService>;
