import { ErrorMessages, healthResponseSchema, postPageSchema } from '@perch/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  contractSerializerCompiler,
  mayHoldParts,
} from '../../src/app/plugins/response-serializer';
import { createTestApp, type TestApp } from '../helpers';

describe('answers checked against the contract (the suite runs with the check on)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const schema = { response: { 200: healthResponseSchema } };
    // Routes added before the first request: an answer the schema does not describe.
    t.app.get('/api/test/wrong-value', { schema }, () => ({ status: 'broken' }));
    t.app.get('/api/test/extra-field', { schema }, () => ({ status: 'ok', secret: 'x' }));
    t.app.get('/api/test/right', { schema }, () => ({ status: 'ok' }));
  });
  afterAll(() => t.close());

  it('answers a matching answer as it is', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/test/right' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
  });

  it.each(['wrong-value', 'extra-field'])(
    'refuses an answer with a %s with a 500 in the error shape, naming the route',
    async (name) => {
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const response = await t.app.inject({ method: 'GET', url: `/api/test/${name}` });
      expect(response.statusCode).toBe(500);
      const route = `GET /api/test/${name}`;
      expect(response.json()).toEqual({
        errors: [ErrorMessages.internal, expect.stringContaining(route) as unknown],
      });
      expect(logged).toHaveBeenCalledWith(expect.stringContaining(route));
      logged.mockRestore();
    },
  );
});

describe('the serializer compiled from a response schema', () => {
  const compile = contractSerializerCompiler({ validate: false });
  const route = { method: 'GET', url: '/x', httpStatus: '200' } as const;

  it('writes what JSON.stringify writes of an answer its schema describes', () => {
    const serialize = compile({ ...route, schema: healthResponseSchema });
    expect(serialize({ status: 'ok' })).toBe(JSON.stringify({ status: 'ok' }));
  });

  it('leaves out what the schema does not describe', () => {
    const serialize = compile({ ...route, schema: healthResponseSchema });
    expect(JSON.parse(serialize({ status: 'ok', secret: 'x' }))).toEqual({ status: 'ok' });
  });

  it('joins answers that hold posts from their parts', () => {
    expect(mayHoldParts(postPageSchema)).toBe(true);
    expect(mayHoldParts(healthResponseSchema)).toBe(false);
  });
});
