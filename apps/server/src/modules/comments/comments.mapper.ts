import type { Comment } from '@perch/contract';
import { toIso } from '../../lib/time';
import type { Viewer } from '../../auth/viewer';
import { decodeEntities } from '../discovery/entities.codec';
import type { CommentCardRow } from './comments.repository';

export function toComment(row: CommentCardRow, viewer: Viewer | null): Comment {
  const me = viewer ? [{ _id: viewer.id, id: viewer.id, username: viewer.username }] : [];
  return {
    _id: row.id,
    id: row.id,
    postId: row.post_id,
    userId: row.user_id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    profileAvatar: row.avatar_url,
    avatarURL: row.avatar_url,
    text: row.text,
    entities: decodeEntities(row.entities),
    votes: {
      upvoteCount: row.upvote_count,
      downvoteCount: row.downvote_count,
      upvotedBy: row.viewer_vote === 1 ? me : [],
      downvotedBy: row.viewer_vote === -1 ? me : [],
    },
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}
