import type { User, UserStub } from '@perch/contract';
import type { MemberRow, UserRow } from '../../platform/db/schema';
import { toIso } from '../../lib/time';

/** The wire shape of a member; the email is shown only to its owner, the password hash never. */
export function toUser(
  row: MemberRow,
  options: { includeEmail?: boolean; followedByViewer?: boolean } = {},
): User {
  const user: User = {
    _id: row.id,
    id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    bio: row.bio,
    avatarURL: row.avatar_url,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    followersCount: row.followers_count,
    followingCount: row.following_count,
    postsCount: row.posts_count,
  };
  if (options.includeEmail) user.email = row.email;
  if (options.followedByViewer !== undefined) user.followedByViewer = options.followedByViewer;
  return user;
}

/** The columns a member's summary (UserStub) is made of, as rows that list a member carry them. */
type SummaryColumns = Pick<UserRow, 'id' | 'username' | 'first_name' | 'last_name' | 'avatar_url'>;

/** A summary as the author columns of a row that lists its member (the inverse of toUserStub). */
export function authorColumns(summary: UserStub): Omit<SummaryColumns, 'id'> {
  return {
    username: summary.username,
    first_name: summary.firstName,
    last_name: summary.lastName,
    avatar_url: summary.avatarURL,
  };
}

/** A member as listed inside another record: followers, following, notification actors. */
export function toUserStub(row: SummaryColumns): UserStub {
  return {
    _id: row.id,
    id: row.id,
    username: row.username,
    firstName: row.first_name,
    lastName: row.last_name,
    avatarURL: row.avatar_url,
  };
}
