import type { Generated, Insertable, Selectable } from 'kysely';

/** Times are milliseconds since the epoch, stored as integers on both databases. */
export interface UsersTable {
  id: string;
  username: string;
  first_name: string;
  last_name: string;
  email: string;
  password_hash: string;
  bio: Generated<string>;
  avatar_url: string | null;
  followers_count: Generated<number>;
  following_count: Generated<number>;
  posts_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface PostsTable {
  id: string;
  user_id: string;
  content: string;
  media_url: string | null;
  like_count: Generated<number>;
  comment_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface LikesTable {
  post_id: string;
  user_id: string;
  created_at: number;
}

export interface CommentsTable {
  id: string;
  post_id: string;
  /** null once the author's account is gone: shown as 'Unknown'. */
  user_id: string | null;
  text: string;
  upvote_count: Generated<number>;
  downvote_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

export interface CommentVotesTable {
  comment_id: string;
  user_id: string;
  /** 1 for an upvote, -1 for a downvote. */
  vote: number;
}

export interface FollowsTable {
  follower_id: string;
  followee_id: string;
  created_at: number;
}

export interface BookmarksTable {
  user_id: string;
  post_id: string;
  created_at: number;
}

/** An uploaded image; one row per member who uploaded these bytes. */
export interface MediaTable {
  id: string;
  user_id: string;
  /** /media/<prefix>/<sha256>.<ext>, shared by everyone who uploads the same bytes. */
  url: string;
  thumbnail_url: string;
  mime: string;
  bytes: number;
  width: number;
  height: number;
  /** The member's latest upload of these bytes: orphans are swept a grace period after it. */
  created_at: number;
}

export interface Database {
  users: UsersTable;
  posts: PostsTable;
  likes: LikesTable;
  comments: CommentsTable;
  comment_votes: CommentVotesTable;
  follows: FollowsTable;
  bookmarks: BookmarksTable;
  media: MediaTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type MediaRow = Selectable<MediaTable>;
