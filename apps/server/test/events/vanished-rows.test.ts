import type { DomainEvent } from '@perch/contract';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids';
import { createNotificationsConsumer } from '../../src/modules/notifications/notifications.handler';
import { createTimelineWrites } from '../../src/modules/timelines/fan-out';
import { createOnDemandAuthors } from '../../src/modules/timelines/on-demand-authors';
import { runConsumer, type DurableConsumer } from '../../src/platform/events/consumer';
import { appendEvents } from '../../src/platform/events/outbox.repository';
import { fakeLog } from '../infra/fake-log';
import { testDatabaseKind, useMigratedTestDatabase } from '../test-database';

// Only PostgreSQL runs a consumer beside a deletion: SQLite's write transactions take turns.
describe.skipIf(testDatabaseKind() !== 'postgres')(
  'consumers when a row vanishes under them',
  () => {
    const t = useMigratedTestDatabase('vanished-rows');
    let members = 0;

    async function insertMember(): Promise<string> {
      const id = newId(Date.now());
      members += 1;
      await t.db
        .insertInto('users')
        .values({
          id,
          username: `vanish_${members}`,
          first_name: 'Vanish',
          last_name: `Member ${members}`,
          email: `vanish_${members}@example.com`,
          password_hash: 'not-a-hash',
          avatar_url: null,
          created_at: 0,
          updated_at: 0,
        })
        .execute();
      return id;
    }

    async function insertPost(authorId: string): Promise<string> {
      const id = newId(Date.now());
      const now = Date.now();
      await t.db
        .insertInto('posts')
        .values({
          id,
          user_id: authorId,
          content: 'soon gone',
          media_url: null,
          media_alt: null,
          entities: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      return id;
    }

    const publish = (event: DomainEvent) =>
      t.db.transaction().execute((trx) => appendEvents(trx, [event], Date.now()));

    /** Waits until some statement on the database waits for a lock. */
    async function untilOneWaits(): Promise<void> {
      for (let tries = 0; tries < 200; tries += 1) {
        const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db);
        if (Number(rows[0]?.n) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('no statement waited for a lock');
    }

    /**
     * Runs the consumer while a transaction deletes the post: the consumer reads the post (not yet
     * deleted for it), its insert waits for the deletion's lock, and the deletion commits.
     */
    async function runWhileDeleting(consumer: DurableConsumer, postId: string) {
      const deletion = await t.db.startTransaction().execute();
      await deletion.deleteFrom('posts').where('id', '=', postId).execute();
      const log = fakeLog();
      const committed: number[] = [];
      const running = runConsumer(t.db, consumer, {
        log,
        committed: (lastId) => committed.push(lastId),
      });
      await untilOneWaits();
      await deletion.commit().execute();
      const done = await running;
      const position = await t.db
        .selectFrom('event_consumers')
        .select('last_id')
        .where('name', '=', consumer.name)
        .executeTakeFirst();
      const newest = await t.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst();
      return { done, log, position: position?.last_id, newest: newest?.id };
    }

    it('notifications: a like of a post deleted meanwhile is done, quietly', async () => {
      const [author, liker] = [await insertMember(), await insertMember()];
      const postId = await insertPost(author);
      await publish({
        type: 'post.liked',
        payload: { postId, postAuthorId: author, userId: liker, likeCount: 1 },
      });
      const consumer = createNotificationsConsumer(
        { keepsFrom: () => Promise.resolve(false), hiddenWithin: () => Promise.resolve([]) },
        { votersOf: () => Promise.resolve([]) },
      );

      const { done, log, position, newest } = await runWhileDeleting(consumer, postId);
      expect(log.error).not.toHaveBeenCalled();
      expect(done).toBe(true);
      expect(position).toBe(newest);
      const made = await t.db.selectFrom('notifications').select('id').execute();
      expect(made).toEqual([]);
    });

    it("timelines: a new post deleted before it reached its followers' timelines is done, quietly", async () => {
      const [author, follower] = [await insertMember(), await insertMember()];
      await t.db
        .insertInto('follows')
        .values({ follower_id: follower, followee_id: author, created_at: 0 })
        .execute();
      await t.db.insertInto('home_timelines').values({ user_id: follower, read_at: 0 }).execute();
      const postId = await insertPost(author);
      await publish({ type: 'post.created', payload: { postId, authorId: author } });
      const onDemand = createOnDemandAuthors({ reads: t.db, followers: 1_000, length: 100 });
      const { consumer } = createTimelineWrites({ length: 100, onDemand });

      const { done, log, position, newest } = await runWhileDeleting(consumer, postId);
      expect(log.error).not.toHaveBeenCalled();
      expect(done).toBe(true);
      expect(position).toBe(newest);
      const entries = await t.db.selectFrom('home_timeline_entries').select('post_id').execute();
      expect(entries).toEqual([]);
    });

    it('any consumer: an event whose row vanished is dropped alone, with the events it recorded', async () => {
      const author = await insertMember();
      const reader = await insertMember();
      const [gone, kept] = [await insertPost(author), await insertPost(author)];
      await publish({ type: 'post.created', payload: { postId: gone, authorId: author } });
      await publish({ type: 'post.created', payload: { postId: kept, authorId: author } });
      // Bookmarks each new post for the reader without asking whether it is still there.
      const consumer: DurableConsumer = {
        name: 'bookmarks-every-post',
        types: new Set(['post.created']),
        async handle(trx, events, recorder) {
          for (const event of events) {
            if (event.type !== 'post.created') continue;
            await trx
              .insertInto('bookmarks')
              .values({ user_id: reader, post_id: event.payload.postId, created_at: 0 })
              .execute();
            recorder.record({
              type: 'bookmark.added',
              payload: { userId: reader, postId: event.payload.postId },
            });
          }
        },
      };

      const { done, log } = await runWhileDeleting(consumer, gone);
      expect(log.error).not.toHaveBeenCalled();
      expect(done).toBe(true);
      const bookmarks = await t.db.selectFrom('bookmarks').select('post_id').execute();
      expect(bookmarks).toEqual([{ post_id: kept }]);
      const recorded = await t.db
        .selectFrom('outbox')
        .select('payload')
        .where('type', '=', 'bookmark.added')
        .execute();
      expect(recorded.map((row) => JSON.parse(row.payload) as unknown)).toEqual([
        { userId: reader, postId: kept },
      ]);
    });
  },
);
