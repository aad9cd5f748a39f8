import { sql, type Kysely } from 'kysely';

// Migrations are frozen history: they take Kysely<unknown> so later schema changes cannot break them.
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('username', 'varchar(30)', (c) => c.notNull())
    .addColumn('first_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('last_name', 'varchar(50)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('avatar_url', 'text')
    .addColumn('followers_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('following_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('posts_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  // Usernames keep their case but are unique regardless of it.
  await db.schema
    .createIndex('users_username_lower_key')
    .on('users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();

  await db.schema
    .createTable('posts')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('media_url', 'text')
    .addColumn('like_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('likes')
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().references('posts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('likes_pkey', ['post_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'varchar(26)', (c) => c.primaryKey())
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().references('posts.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(26)', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('upvote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downvote_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('comment_votes')
    .addColumn('comment_id', 'varchar(26)', (c) =>
      c.notNull().references('comments.id').onDelete('cascade'),
    )
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('vote', 'integer', (c) => c.notNull().check(sql`vote in (1, -1)`))
    .addPrimaryKeyConstraint('comment_votes_pkey', ['comment_id', 'user_id'])
    .execute();

  await db.schema
    .createTable('follows')
    .addColumn('follower_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('followee_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('follows_pkey', ['follower_id', 'followee_id'])
    .addCheckConstraint('follows_not_self', sql`follower_id <> followee_id`)
    .execute();

  await db.schema
    .createTable('bookmarks')
    .addColumn('user_id', 'varchar(26)', (c) =>
      c.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('post_id', 'varchar(26)', (c) =>
      c.notNull().references('posts.id').onDelete('cascade'),
    )
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('bookmarks_pkey', ['user_id', 'post_id'])
    .execute();

  await createSecondaryIndexes(db);
}

/**
 * Kept apart so that a bulk load can drop them, insert in key order and build them once afterwards.
 */
export async function createSecondaryIndexes(db: Kysely<unknown>): Promise<void> {
  const indexes: [name: string, table: string, columns: string[]][] = [
    ['posts_user_created_idx', 'posts', ['user_id', 'created_at', 'id']],
    ['posts_created_idx', 'posts', ['created_at', 'id']],
    ['posts_trending_idx', 'posts', ['like_count', 'created_at', 'id']],
    ['likes_user_idx', 'likes', ['user_id', 'created_at', 'post_id']],
    ['comments_post_idx', 'comments', ['post_id', 'created_at', 'id']],
    ['comments_user_idx', 'comments', ['user_id']],
    ['comment_votes_user_idx', 'comment_votes', ['user_id']],
    ['follows_followee_idx', 'follows', ['followee_id', 'follower_id']],
    ['bookmarks_user_idx', 'bookmarks', ['user_id', 'created_at', 'post_id']],
    ['bookmarks_post_idx', 'bookmarks', ['post_id']],
  ];
  for (const [name, table, columns] of indexes) {
    await db.schema.createIndex(name).ifNotExists().on(table).columns(columns).execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'bookmarks',
    'follows',
    'comment_votes',
    'comments',
    'likes',
    'posts',
    'users',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
