import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GUEST_CREDENTIALS } from '@perch/contract';
import { sql, type Kysely } from 'kysely';
import { newId } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import { demoFollows, demoPosts, featuredMembers, quietMembers } from './demo-content';
import { avatarSvg, SCENE_SIZE, sceneAlts, sceneSvgs } from './demo-images';
import { backfillEntities } from './migrations/discovery-backfill';
import type { Database } from './schema';

const HOUR = 3_600_000;
// A stored hash no password can match: demo members other than the guest cannot sign in.
const NO_PASSWORD = '!';

interface SeedOptions {
  passwordHashCost: number;
  mediaDir: string;
}

function writeDemoMedia(mediaDir: string): void {
  const dir = path.join(mediaDir, 'demo');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const member of featuredMembers) {
    if (!member.avatar) continue;
    const initials = `${member.firstName[0] ?? ''}${member.lastName[0] ?? ''}`;
    writeFileSync(
      path.join(dir, `avatar-${member.username}.svg`),
      avatarSvg(initials, member.avatar),
      { mode: 0o600 },
    );
  }
  for (const [name, svg] of Object.entries(sceneSvgs)) {
    writeFileSync(path.join(dir, `${name}.svg`), svg, { mode: 0o600 });
  }
}

/** The demo community goes only into a database no member has used yet. */
async function hasAnyUser(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

type Trx = Kysely<Database>;
type IdOf = (username: string) => string;

/** The demo members, joined a day apart; answers how to find each one's id by username. */
async function insertMembers(trx: Trx, guestHash: string, now: number): Promise<IdOf> {
  const ids = new Map<string, string>();
  const members = demoMembers();
  await trx
    .insertInto('users')
    .values(
      members.map((member, index) => {
        const joined = now - (400 - index) * 24 * HOUR;
        const id = newId(joined);
        ids.set(member.username, id);
        return {
          id,
          username: member.username,
          first_name: member.firstName,
          last_name: member.lastName,
          email: `${member.username}@demo.perch.local`,
          password_hash: member.username === GUEST_CREDENTIALS.username ? guestHash : NO_PASSWORD,
          bio: member.bio,
          avatar_url: member.avatar ? `/media/demo/avatar-${member.username}.svg` : null,
          created_at: joined,
          updated_at: joined,
        };
      }),
    )
    .execute();
  const idOf = (username: string): string => {
    const id = ids.get(username);
    if (!id) throw new Error(`demo data names an unknown member: ${username}`);
    return id;
  };

  return idOf;
}

async function insertFollows(trx: Trx, idOf: IdOf, now: number): Promise<void> {
  const follows = [
    ...demoFollows,
    ...quietMembers.flatMap((quiet, i) =>
      featuredMembers
        .filter((_, j) => (i + j) % 2 === 0)
        .map((f) => [quiet.username, f.username] as const),
    ),
  ];
  await trx
    .insertInto('follows')
    .values(
      follows.map(([from, to]) => ({
        follower_id: idOf(from),
        followee_id: idOf(to),
        created_at: now - 30 * 24 * HOUR,
      })),
    )
    .execute();
}

/** Each demo post with its likes and comments. */
async function insertPosts(trx: Trx, idOf: IdOf, now: number): Promise<void> {
  const members = demoMembers();
  for (const post of demoPosts) {
    const createdAt = now - post.hoursAgo * HOUR;
    const postId = newId(createdAt);
    const album = (post.images ?? []).map((scene) => ({
      url: `/media/demo/${scene}.svg`,
      alt: sceneAlts[scene],
      ...SCENE_SIZE,
      blurhash: null,
    }));
    await trx
      .insertInto('posts')
      .values({
        id: postId,
        user_id: idOf(post.author),
        content: post.content,
        media_url: album[0]?.url ?? null,
        media_alt: album[0]?.alt ?? null,
        media: album.length === 0 ? null : JSON.stringify(album),
        created_at: createdAt,
        updated_at: createdAt,
      })
      .execute();
    if (album.length > 0) {
      await trx
        .insertInto('post_media')
        .values(album.map(({ url }, position) => ({ post_id: postId, position, url })))
        .execute();
    }
    const likers = members.filter((m) => m.username !== post.author).slice(0, post.likes);
    await trx
      .insertInto('likes')
      .values(
        likers.map((m, i) => ({
          post_id: postId,
          user_id: idOf(m.username),
          created_at: createdAt + (i + 1) * 60_000,
        })),
      )
      .execute();
    await trx
      .insertInto('comments')
      .values(
        post.comments.map((comment, i) => {
          const at = createdAt + (i + 1) * 15 * 60_000;
          return {
            id: newId(at),
            post_id: postId,
            user_id: idOf(comment.author),
            text: comment.text,
            created_at: at,
            updated_at: at,
          };
        }),
      )
      .execute();
  }
}

async function recountCounters(trx: Trx): Promise<void> {
  // Counters are derived from the rows just written, so they are true by construction.
  await trx
    .updateTable('posts')
    .set({
      like_count: sql`(select count(*) from likes where likes.post_id = posts.id)`,
      comment_count: sql`(select count(*) from comments where comments.post_id = posts.id)`,
    })
    .execute();
  await trx
    .updateTable('users')
    .set({
      posts_count: sql`(select count(*) from posts where posts.user_id = users.id)`,
      followers_count: sql`(select count(*) from follows where follows.followee_id = users.id)`,
      following_count: sql`(select count(*) from follows where follows.follower_id = users.id)`,
    })
    .execute();
}

const demoMembers = () => [...featuredMembers, ...quietMembers];

/** Fills an empty database with a small, consistent community; leaves any existing data alone. */
export async function seedDemoDataIfEmpty(
  db: Kysely<Database>,
  options: SeedOptions,
): Promise<boolean> {
  if (await hasAnyUser(db)) return false;
  writeDemoMedia(options.mediaDir);
  const guestHash = await hashPassword(GUEST_CREDENTIALS.password, options.passwordHashCost);
  const now = Date.now();

  await db.transaction().execute(async (trx) => {
    const idOf = await insertMembers(trx, guestHash, now);
    await insertFollows(trx, idOf, now);
    await insertPosts(trx, idOf, now);
    await recountCounters(trx);
  });
  // Rows written directly: their tags and mentions are found as for rows older than them.
  await backfillEntities(db as Kysely<unknown>);
  return true;
}
