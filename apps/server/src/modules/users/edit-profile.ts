import { ErrorMessages, type User, type UserEditBody } from '@perch/contract';
import type { Viewer } from '../../lib/viewer';
import { notFound } from '../../lib/errors';
import type { UsersDeps } from './users.deps';
import { listedById } from './listed';
import * as repo from './users.repository';

type ProfileChanges = UserEditBody['userData'];

/** The viewer's names, bio and avatar; the username never changes. */
export async function editProfile(
  deps: UsersDeps,
  viewer: Viewer,
  changes: ProfileChanges,
): Promise<{ user: User }> {
  const { db, transact, media } = deps;
  await transact(async (trx, events) => {
    const current = await repo.findUserById(trx, viewer.id);
    if (!current) throw notFound(ErrorMessages.notRegistered);
    if (changes.username !== undefined && changes.username !== current.username) {
      throw notFound(ErrorMessages.usernameImmutable);
    }
    const avatarUrl = changes.avatarURL === undefined ? current.avatar_url : changes.avatarURL;
    const avatarChanged = avatarUrl !== current.avatar_url;
    if (avatarChanged) await media.assertUsable(trx, viewer.id, avatarUrl);
    await repo.updateProfile(trx, viewer.id, {
      first_name: changes.firstName,
      last_name: changes.lastName,
      bio: changes.bio ?? current.bio,
      avatar_url: avatarUrl,
      updated_at: Date.now(),
    });
    events.record({
      type: 'profile.edited',
      payload: { userId: viewer.id, previousAvatarURL: avatarChanged ? current.avatar_url : null },
    });
  });
  return { user: await listedById(db, viewer.id, viewer) };
}
