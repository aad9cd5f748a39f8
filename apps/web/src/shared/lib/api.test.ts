import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { server } from '../../test/server';
import {
  ApiError,
  apiRequest,
  NETWORK_ERROR_MESSAGE,
  NETWORK_ERROR_STATUS,
  onUnauthorized,
  parseResponse,
  UNEXPECTED_RESPONSE_MESSAGE,
} from './api';

describe('apiRequest', () => {
  it('sends JSON and the token in the authorization header', async () => {
    let seen: { auth: string | null; type: string | null; body: unknown } | undefined;
    server.use(
      http.post('/api/echo', async ({ request }) => {
        seen = {
          auth: request.headers.get('authorization'),
          type: request.headers.get('content-type'),
          body: await request.json(),
        };
        return HttpResponse.json({ ok: true }, { status: 201 });
      }),
    );

    const result = await apiRequest('/api/echo', {
      method: 'POST',
      body: { text: 'hi' },
      token: 'secret-token',
    });

    expect(result).toEqual({ ok: true });
    expect(seen).toEqual({ auth: 'secret-token', type: 'application/json', body: { text: 'hi' } });
  });

  it('sends extra headers, keeping its own accept header', async () => {
    let seen: { prefer: string | null; accept: string | null } | undefined;
    server.use(
      http.post('/api/minimal', ({ request }) => {
        seen = { prefer: request.headers.get('prefer'), accept: request.headers.get('accept') };
        return HttpResponse.json({}, { status: 201 });
      }),
    );

    await apiRequest('/api/minimal', {
      method: 'POST',
      headers: { prefer: 'respond-async', accept: 'text/html' },
    });

    expect(seen).toEqual({ prefer: 'respond-async', accept: 'application/json' });
  });

  it('asks for lean answers (return=minimal) unless told otherwise', async () => {
    let prefer: string | null = null;
    server.use(
      http.get('/api/lean', ({ request }) => {
        prefer = request.headers.get('prefer');
        return HttpResponse.json({});
      }),
    );

    await apiRequest('/api/lean');

    expect(prefer).toBe('return=minimal');
  });

  it('sends no authorization header for anonymous calls', async () => {
    let auth: string | null = 'unset';
    server.use(
      http.get('/api/open', ({ request }) => {
        auth = request.headers.get('authorization');
        return HttpResponse.json({});
      }),
    );
    await apiRequest('/api/open');
    expect(auth).toBeNull();
  });

  it('throws an ApiError carrying the status and the server messages', async () => {
    server.use(
      http.post('/api/fail', () =>
        HttpResponse.json({ errors: ['First problem.', 'Second problem.'] }, { status: 422 }),
      ),
    );

    const error = await apiRequest('/api/fail', { method: 'POST' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      messages: ['First problem.', 'Second problem.'],
      message: 'First problem.',
    });
  });

  it('falls back to a generic message when the error body is not the usual shape', async () => {
    server.use(
      http.get('/api/broken', () => new HttpResponse('<html>oops</html>', { status: 502 })),
    );

    await expect(apiRequest('/api/broken')).rejects.toMatchObject({
      status: 502,
      messages: [expect.any(String)],
    });
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    server.use(http.get('/api/down', () => HttpResponse.error()));

    const error = await apiRequest('/api/down').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(NETWORK_ERROR_STATUS);
    expect((error as ApiError).isNetworkError).toBe(true);
  });

  it('validates the success body with the chosen schema', async () => {
    server.use(http.get('/api/shape', () => HttpResponse.json({ unreadCount: 'nope' })));

    const error = await apiRequest('/api/shape', { schema: (s) => s.unreadCountSchema }).catch(
      (e: unknown) => e,
    );

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 200, messages: [UNEXPECTED_RESPONSE_MESSAGE] });
  });

  it('resolves the parsed body when it fits the chosen schema', async () => {
    server.use(http.get('/api/shape', () => HttpResponse.json({ unreadCount: 4, extra: true })));

    const result = await apiRequest('/api/shape', { schema: (s) => s.unreadCountSchema });

    // The contract's objects drop fields they do not know.
    expect(result).toEqual({ unreadCount: 4 });
  });

  it('fails as a network failure when the schemas cannot be fetched', async () => {
    const unavailable = Promise.reject(new Error('Failed to fetch dynamically imported module'));

    const error = await parseResponse(
      200,
      { unreadCount: 1 },
      unavailable,
      (s) => s.unreadCountSchema,
    ).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: NETWORK_ERROR_STATUS,
      messages: [NETWORK_ERROR_MESSAGE],
    });
  });

  it('reads only a list of strings as the server messages', async () => {
    server.use(
      http.get('/api/odd', () =>
        HttpResponse.json({ errors: ['Fine.', 42] }, { status: 400, statusText: 'Bad Request' }),
      ),
    );

    await expect(apiRequest('/api/odd')).rejects.toMatchObject({
      status: 400,
      messages: ['Bad Request'],
    });
  });

  it('tells listeners when an authenticated call is answered 401, not an anonymous one', async () => {
    server.use(
      http.get('/api/private', () => HttpResponse.json({ errors: ['no'] }, { status: 401 })),
    );
    const listener = vi.fn();
    const unsubscribe = onUnauthorized(listener);

    await apiRequest('/api/private').catch(() => undefined);
    expect(listener).not.toHaveBeenCalled();

    await apiRequest('/api/private', { token: 'expired' }).catch(() => undefined);
    expect(listener).toHaveBeenCalledWith('expired');

    unsubscribe();
  });
});
