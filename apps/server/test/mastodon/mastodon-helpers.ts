import { createRestAPIClient, type mastodon } from 'masto';
import type { AppConfig } from '../../src/app/config';
import type { Member } from '../factories';
import { createTestApp, type TestApp } from '../helpers';

/** A Perch app listening on a loopback port, for clients that speak HTTP (masto). */
export interface ListeningApp extends TestApp {
  url: string;
  /** A masto client acting with this token (a member's), or anonymously. */
  client: (token?: string) => mastodon.rest.Client;
}

export async function createListeningApp(
  overrides: Partial<AppConfig> = {},
): Promise<ListeningApp> {
  const t = await createTestApp(overrides);
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  return {
    ...t,
    url,
    client: (token?: string) => createRestAPIClient({ url, accessToken: token, timeout: 10_000 }),
  };
}

export const clientOf = (t: ListeningApp, member: Member) => t.client(member.token);
