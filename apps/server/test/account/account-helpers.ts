import { mediaUploadResponseSchema } from '@perch/contract';
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import yauzl from 'yauzl';
import type { Database } from '../../src/platform/db/schema';
import type { Member } from '../factories';
import { call } from '../helpers';
import { bodyOf } from '../social/social-helpers';

export const changePassword = (
  app: FastifyInstance,
  token: string | undefined,
  body: Record<string, unknown>,
) => call(app, { method: 'POST', url: '/api/auth/password', token, payload: body });

export const deleteAccount = (
  app: FastifyInstance,
  token: string | undefined,
  body: Record<string, unknown>,
) => call(app, { method: 'DELETE', url: '/api/users/me', token, payload: body });

/** Deletes the member's account the way the app does: their password and their name typed. */
export const deleteOwnAccount = (app: FastifyInstance, member: Member) =>
  deleteAccount(app, member.token, { password: member.password, username: member.user.username });

/** Uploads these bytes as the member: the same picture uploaded twice gets the same URL. */
export async function uploadBytes(
  app: FastifyInstance,
  token: string,
  image: Buffer,
  purpose: 'post' | 'avatar' = 'post',
): Promise<string> {
  const boundary = '----perch-account-test';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\n${purpose}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="image.png"\r\n` +
        'Content-Type: image/png\r\n\r\n',
    ),
    image,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await call(app, {
    method: 'POST',
    url: '/api/media',
    token,
    payload,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  });
  return bodyOf(mediaUploadResponseSchema, response, 201).url;
}

export const me = (app: FastifyInstance, token: string) =>
  call(app, { method: 'GET', url: '/api/auth/me', token });

export const login = (app: FastifyInstance, username: string, password: string) =>
  call(app, { method: 'POST', url: '/api/auth/login', payload: { username, password } });

/**
 * For each counter Perch keeps, how many rows disagree with a count of what it counts (the same
 * checks as bench/lib/instance.ts checkCounters): all zero on a consistent database.
 */
export async function counterMismatches(db: Kysely<Database>): Promise<Record<string, number>> {
  const checks = {
    'users.posts_count': sql<{ n: number | string }>`select count(*) as n from users u
      left join (select user_id, count(*) as c from posts group by user_id) x on x.user_id = u.id
      where u.posts_count <> coalesce(x.c, 0)`,
    'users.followers_count': sql<{ n: number | string }>`select count(*) as n from users u
      left join (select followee_id, count(*) as c from follows group by followee_id) x
        on x.followee_id = u.id
      where u.followers_count <> coalesce(x.c, 0)`,
    'users.following_count': sql<{ n: number | string }>`select count(*) as n from users u
      left join (select follower_id, count(*) as c from follows group by follower_id) x
        on x.follower_id = u.id
      where u.following_count <> coalesce(x.c, 0)`,
    'posts.like_count': sql<{ n: number | string }>`select count(*) as n from posts p
      left join (select post_id, count(*) as c from likes group by post_id) x on x.post_id = p.id
      where p.like_count <> coalesce(x.c, 0)`,
    'posts.repost_count': sql<{ n: number | string }>`select count(*) as n from posts p
      left join (select post_id, count(*) as c from reposts group by post_id) x
        on x.post_id = p.id
      where p.repost_count <> coalesce(x.c, 0)`,
    'posts.comment_count': sql<{ n: number | string }>`select count(*) as n from posts p
      left join (select post_id, count(*) as c from comments group by post_id) x
        on x.post_id = p.id
      where p.comment_count <> coalesce(x.c, 0)`,
    'comments.votes': sql<{ n: number | string }>`select count(*) as n from comments c
      left join (select comment_id, sum(case when vote = 1 then 1 else 0 end) as up,
                        sum(case when vote = -1 then 1 else 0 end) as down
                 from comment_votes group by comment_id) x on x.comment_id = c.id
      where c.upvote_count <> coalesce(x.up, 0) or c.downvote_count <> coalesce(x.down, 0)`,
    'polls.voters_count': sql<{ n: number | string }>`select count(*) as n from polls p
      left join (select poll_id, count(*) as c from poll_voters group by poll_id) x
        on x.poll_id = p.id
      where p.voters_count <> coalesce(x.c, 0)`,
    'poll_options.votes_count': sql<{ n: number | string }>`select count(*) as n
      from poll_options o
      left join (select poll_id, position, count(*) as c from poll_votes
                 group by poll_id, position) x on x.poll_id = o.poll_id and x.position = o.position
      where o.votes_count <> coalesce(x.c, 0)`,
    'tags.post_count': sql<{ n: number | string }>`select count(*) as n from
      (select tag, count(*) as c from post_tags group by tag) x
      full outer join tags t on t.name = x.tag
      where t.post_count is null or x.c is null or t.post_count <> x.c`,
    'notification_unread_counts.count': sql<{ n: number | string }>`select count(*) as n from
      (select recipient_id, count(*) as c from notifications where read_at is null
       group by recipient_id) x
      full outer join notification_unread_counts k on k.recipient_id = x.recipient_id
      where coalesce(k.count, 0) <> coalesce(x.c, 0)`,
  };
  const result: Record<string, number> = {};
  for (const [name, query] of Object.entries(checks)) {
    const { rows } = await query.execute(db);
    result[name] = Number(rows[0]?.n ?? 0);
  }
  return result;
}

export const NO_MISMATCH = {
  'users.posts_count': 0,
  'users.followers_count': 0,
  'users.following_count': 0,
  'posts.like_count': 0,
  'posts.repost_count': 0,
  'posts.comment_count': 0,
  'comments.votes': 0,
  'polls.voters_count': 0,
  'poll_options.votes_count': 0,
  'tags.post_count': 0,
  'notification_unread_counts.count': 0,
};

/**
 * Rows that point at nothing: text authored by a member who is gone, timeline entries and tags
 * of gone authors (columns without a foreign key), comments whose author went (SET NULL).
 */
export async function orphanRows(db: Kysely<Database>): Promise<Record<string, number>> {
  const checks = {
    'comments.user_id null': sql<{
      n: number | string;
    }>`select count(*) as n from comments where user_id is null`,
    'home_timeline_entries.author_id': sql<{ n: number | string }>`select count(*) as n
      from home_timeline_entries e where not exists (select 1 from users u where u.id = e.author_id)`,
    'home_timeline_entries.reposted_by': sql<{ n: number | string }>`select count(*) as n
      from home_timeline_entries e where e.reposted_by is not null
        and not exists (select 1 from reposts r where r.id = e.entry_id)`,
    'post_tags.author_id': sql<{ n: number | string }>`select count(*) as n
      from post_tags t where not exists (select 1 from users u where u.id = t.author_id)`,
    'comment_tags.author_id': sql<{ n: number | string }>`select count(*) as n
      from comment_tags t where not exists (select 1 from users u where u.id = t.author_id)`,
  };
  const result: Record<string, number> = {};
  for (const [name, query] of Object.entries(checks)) {
    const { rows } = await query.execute(db);
    result[name] = Number(rows[0]?.n ?? 0);
  }
  return result;
}

export const NO_ORPHANS = {
  'comments.user_id null': 0,
  'home_timeline_entries.author_id': 0,
  'home_timeline_entries.reposted_by': 0,
  'post_tags.author_id': 0,
  'comment_tags.author_id': 0,
};

/**
 * How many rows of each table belong to or point at the member, their posts or their comments
 * (ids taken before the deletion: the posts and comments themselves are gone after it).
 */
export async function rowsOfMember(
  db: Kysely<Database>,
  userId: string,
  postIds: readonly string[],
  commentIds: readonly string[],
): Promise<Record<string, number>> {
  const posts = postIds.length > 0 ? [...postIds] : [''];
  const comments = commentIds.length > 0 ? [...commentIds] : [''];
  const count = async (query: {
    executeTakeFirstOrThrow: () => Promise<{ n: number | string | bigint }>;
  }) => Number((await query.executeTakeFirstOrThrow()).n);
  const counts: Record<string, number> = {
    users: await count(
      db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('id', '=', userId),
    ),
    posts: await count(
      db
        .selectFrom('posts')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('id', 'in', posts)])),
    ),
    likes: await count(
      db
        .selectFrom('likes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('post_id', 'in', posts)])),
    ),
    comments: await count(
      db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) =>
          eb.or([eb('user_id', '=', userId), eb('post_id', 'in', posts), eb('id', 'in', comments)]),
        ),
    ),
    comment_votes: await count(
      db
        .selectFrom('comment_votes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('comment_id', 'in', comments)])),
    ),
    follows: await count(
      db
        .selectFrom('follows')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('follower_id', '=', userId), eb('followee_id', '=', userId)])),
    ),
    bookmarks: await count(
      db
        .selectFrom('bookmarks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('post_id', 'in', posts)])),
    ),
    media: await count(
      db
        .selectFrom('media')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId),
    ),
    notifications: await count(
      db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) =>
          eb.or([
            eb('recipient_id', '=', userId),
            eb('actor_id', '=', userId),
            eb('post_id', 'in', posts),
            eb('comment_id', 'in', comments),
          ]),
        ),
    ),
    sessions: await count(
      db
        .selectFrom('sessions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId),
    ),
    home_timelines: await count(
      db
        .selectFrom('home_timelines')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('user_id', '=', userId),
    ),
    home_timeline_entries: await count(
      db
        .selectFrom('home_timeline_entries')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) =>
          eb.or([
            eb('user_id', '=', userId),
            eb('author_id', '=', userId),
            eb('post_id', 'in', posts),
          ]),
        ),
    ),
    post_tags: await count(
      db
        .selectFrom('post_tags')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('author_id', '=', userId), eb('post_id', 'in', posts)])),
    ),
    comment_tags: await count(
      db
        .selectFrom('comment_tags')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('author_id', '=', userId), eb('comment_id', 'in', comments)])),
    ),
    post_mentions: await count(
      db
        .selectFrom('post_mentions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('post_id', 'in', posts)])),
    ),
    blocks: await count(
      db
        .selectFrom('blocks')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('target_id', '=', userId)])),
    ),
    mutes: await count(
      db
        .selectFrom('mutes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('target_id', '=', userId)])),
    ),
    comment_mentions: await count(
      db
        .selectFrom('comment_mentions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where((eb) => eb.or([eb('user_id', '=', userId), eb('comment_id', 'in', comments)])),
    ),
  };
  return counts;
}

/** Every table of rowsOfMember, at zero. */
export const NOTHING_LEFT = {
  users: 0,
  posts: 0,
  likes: 0,
  comments: 0,
  comment_votes: 0,
  follows: 0,
  bookmarks: 0,
  media: 0,
  notifications: 0,
  sessions: 0,
  home_timelines: 0,
  home_timeline_entries: 0,
  post_tags: 0,
  comment_tags: 0,
  post_mentions: 0,
  comment_mentions: 0,
  blocks: 0,
  mutes: 0,
};

/**
 * The entries of a zip archive, from memory or from a file: name → bytes (tests read them whole).
 * yauzl checks each entry's CRC-32 and sizes against the central directory as it reads.
 */
export function unzip(archive: Buffer | string): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const opened = (error: Error | null, zip: yauzl.ZipFile) => {
      if (error) {
        reject(error);
        return;
      }
      const files = new Map<string, Buffer>();
      zip.on('error', reject);
      zip.on('end', () => {
        resolve(files);
      });
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError) {
            reject(openError);
            return;
          }
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    };
    if (typeof archive === 'string') yauzl.open(archive, { lazyEntries: true }, opened);
    else yauzl.fromBuffer(archive, { lazyEntries: true }, opened);
  });
}

/** A JSON file of an unzipped export. */
export function jsonOf(files: Map<string, Buffer>, name: string): unknown {
  const file = files.get(name);
  if (!file) throw new Error(`the export has no ${name}: ${[...files.keys()].join(', ')}`);
  return JSON.parse(file.toString('utf8'));
}
