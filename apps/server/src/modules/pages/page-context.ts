import type { Entity } from '@perch/contract';
import type { PageContext } from './html/parts';
import type { PagesDeps } from './pages.deps';

const mentionedIds = (entities: readonly Entity[]): string[] =>
  entities.flatMap((entity) => (entity.type === 'mention' ? [entity.userId] : []));

/**
 * What a page needs beside its posts, read together: which of the members it names (mentions,
 * comment authors) have public pages, and the recorded sizes of the images it shows.
 */
export async function pageContext(
  { users, media }: Pick<PagesDeps, 'users' | 'media'>,
  named: { entities: readonly Entity[]; memberIds?: readonly (string | null)[] }[],
  imageUrls: readonly (string | null)[],
): Promise<PageContext> {
  const ids = named.flatMap(({ entities, memberIds = [] }) => [
    ...mentionedIds(entities),
    ...memberIds.filter((id) => id !== null),
  ]);
  const [linkable, sizes] = await Promise.all([
    users.publicAmong(ids),
    media.sizesOf(imageUrls.filter((url) => url !== null)),
  ]);
  return { linkable, sizes };
}
