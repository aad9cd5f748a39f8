import type { mastodon } from '@perch/contract';

/** How the viewer stands to one member, as Perch keeps it. */
export interface Ties {
  following: boolean;
  followedBy: boolean;
  blocking: boolean;
  blockedBy: boolean;
  muting: boolean;
}

/**
 * Mastodon's Relationship from Perch's ties. Perch has no follow requests, endorsements, private
 * notes or per-follow options: a follow always shows reposts and never notifies of posts.
 */
export function toRelationship(id: string, ties: Ties): mastodon.Relationship {
  return {
    id,
    following: ties.following,
    showing_reblogs: ties.following,
    notifying: false,
    languages: null,
    followed_by: ties.followedBy,
    blocking: ties.blocking,
    blocked_by: ties.blockedBy,
    muting: ties.muting,
    muting_notifications: ties.muting,
    requested: false,
    requested_by: false,
    domain_blocking: false,
    endorsed: false,
    note: '',
  };
}
