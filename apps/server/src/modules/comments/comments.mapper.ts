import type { Comment } from '@perch/contract';
import { toIso } from '../../lib/time';
import type { Viewer } from '../../lib/viewer';
import { decodeEntities } from '../discovery/entities.codec';
import type { CommentViewRow } from './comments.repository';

export function toComment(row: CommentViewRow, viewer: Viewer | null): Comment {
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
    votes: votesOf(row, row.viewer_vote, viewer),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

/** The comment as `viewer` sees it, who cast `vote` (1 up, -1 down) on it. */
export function withViewerVote(comment: Comment, vote: number, viewer: Viewer): Comment {
  const counts = {
    upvote_count: comment.votes.upvoteCount,
    downvote_count: comment.votes.downvoteCount,
  };
  return { ...comment, votes: votesOf(counts, vote, viewer) };
}

function votesOf(
  counts: Pick<CommentViewRow, 'upvote_count' | 'downvote_count'>,
  vote: number | null,
  viewer: Viewer | null,
): Comment['votes'] {
  const me = viewer ? [{ _id: viewer.id, id: viewer.id, username: viewer.username }] : [];
  return {
    upvoteCount: counts.upvote_count,
    downvoteCount: counts.downvote_count,
    upvotedBy: vote === 1 ? me : [],
    downvotedBy: vote === -1 ? me : [],
  };
}
