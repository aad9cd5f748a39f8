import type { FastifyInstance, FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Client } from '../../src/app/plugins/auth.plugin';
import { mastodonAuth } from '../../src/mastodon/auth';

/** The admission of Mastodon's methods, for a token whose grant is `client`. */
function admit(client: Client) {
  const app = { verifyClient: () => Promise.resolve(client) } as Pick<
    FastifyInstance,
    'verifyClient'
  >;
  const request = { headers: { authorization: 'Bearer t' }, query: {} } as FastifyRequest;
  return { auth: mastodonAuth(app), request };
}

const member = (scopes?: string[]): Client => ({
  viewer: { id: 'u1', username: 'ana', sessionId: 's1', appId: 'a1', ...(scopes && { scopes }) },
});

describe("Mastodon methods' scopes", () => {
  it('refuses a read grant on a write method, and admits a grant that covers it', async () => {
    const read = admit(member(['read']));
    await expect(read.auth.member('write:statuses')(read.request)).rejects.toMatchObject({
      statusCode: 403,
      message: 'This action is outside the authorized scopes',
    });
    const write = admit(member(['read', 'write']));
    await write.auth.member('write:statuses')(write.request);
    expect(write.request.viewer?.id).toBe('u1');
    const granular = admit(member(['write:statuses']));
    await expect(granular.auth.member('write:follows')(granular.request)).rejects.toMatchObject({
      statusCode: 403,
    });
  });

  it('lets a Perch session do everything, and an app token only what apps may', async () => {
    const own = admit(member());
    await own.auth.member('write:statuses')(own.request);
    const appOnly = admit({ app: { appId: 'a1', scopes: ['read'] } });
    await expect(appOnly.auth.member('read:statuses')(appOnly.request)).rejects.toMatchObject({
      statusCode: 422,
    });
    await appOnly.auth.open('read:statuses')(appOnly.request);
    expect(appOnly.request.viewer).toBeNull();
    await expect(appOnly.auth.open('write:statuses')(appOnly.request)).rejects.toMatchObject({
      statusCode: 403,
    });
    await appOnly.auth.app()(appOnly.request);
    expect(appOnly.request.oauthAppId).toBe('a1');
  });
});
