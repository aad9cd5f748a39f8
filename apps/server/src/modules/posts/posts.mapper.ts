import type { Post } from '@perch/contract';
import { toIso } from '../../lib/time';
import { sqlBoolean } from '../../db/dialect';
import type { PostCardRow } from './posts.repository';

export function toPost(row: PostCardRow, viewer: { id: string; username: string } | null): Post {
  const liked = viewer !== null && sqlBoolean(row.liked);
  return {
    _id: row.id,
    id: row.id,
    content: row.content,
    mediaURL: row.media_url,
    username: row.username,
    userId: row.user_id,
    author: {
      _id: row.user_id,
      id: row.user_id,
      username: row.username,
      firstName: row.first_name,
      lastName: row.last_name,
      avatarURL: row.avatar_url,
    },
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    likes: {
      likeCount: row.like_count,
      likedBy: liked ? [{ _id: viewer.id, id: viewer.id, username: viewer.username }] : [],
      dislikedBy: [],
    },
    commentCount: row.comment_count,
    likedByViewer: liked,
    bookmarkedByViewer: viewer !== null && sqlBoolean(row.bookmarked),
  };
}
