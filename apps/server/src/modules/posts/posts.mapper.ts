import type { Entity, Post } from '@perch/contract';
import { decodeEntities } from '../discovery/entities.codec';
import { toIso } from '../../lib/time';
import { sqlBoolean } from '../../db/dialect';
import type { PostCard, PostCardRow } from './posts.repository';

type Reader = { id: string; username: string } | null;

export function toPost(row: PostCardRow, viewer: Reader): Post {
  return faceToPost(faceOf(row), row.liked, row.bookmarked, viewer);
}

/** What a card shows every reader, formatted once (the card cache keeps it). */
export interface PostFace {
  card: PostCard;
  author: Post['author'];
  entities: Entity[];
  createdAt: string;
  updatedAt: string;
}

export function faceOf(card: PostCard): PostFace {
  return {
    card,
    author: {
      _id: card.user_id,
      id: card.user_id,
      username: card.username,
      firstName: card.first_name,
      lastName: card.last_name,
      avatarURL: card.avatar_url,
    },
    entities: decodeEntities(card.entities),
    createdAt: toIso(card.created_at),
    updatedAt: toIso(card.updated_at),
  };
}

/** A card as the viewer sees it, given their flags ('liked', 'bookmarked') read apart. */
export function faceToPost(
  face: PostFace,
  likedFlag: unknown,
  bookmarkedFlag: unknown,
  viewer: Reader,
): Post {
  const row = face.card;
  const liked = viewer !== null && sqlBoolean(likedFlag);
  return {
    _id: row.id,
    id: row.id,
    content: row.content,
    entities: face.entities,
    mediaURL: row.media_url,
    mediaAlt: row.media_alt,
    username: row.username,
    userId: row.user_id,
    author: face.author,
    createdAt: face.createdAt,
    updatedAt: face.updatedAt,
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
