import type { Post } from '@perch/contract';
import { toIso } from '../../lib/time';
import { sqlBoolean } from '../../db/dialect';
import type { PostCard } from './post-cards';
import type { PostCardRow } from './posts.repository';

type Reader = { id: string; username: string } | null;

export function toPost(row: PostCardRow, viewer: Reader): Post {
  return toPostWithFlags(row, row.liked, row.bookmarked, viewer);
}

/** A card as the viewer sees it, given their flags ('liked', 'bookmarked') read apart. */
export function toPostWithFlags(
  row: PostCard,
  likedFlag: unknown,
  bookmarkedFlag: unknown,
  viewer: Reader,
): Post {
  const liked = viewer !== null && sqlBoolean(likedFlag);
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
    bookmarkedByViewer: viewer !== null && sqlBoolean(bookmarkedFlag),
  };
}
