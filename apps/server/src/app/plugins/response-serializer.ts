import { isDeepStrictEqual } from 'node:util';
import { commentSchema, postSchema, userSchema, userStubSchema } from '@perch/contract';
import type { FastifySerializerCompiler } from 'fastify';
import fastJson from 'fast-json-stringify';
import { z } from 'zod';
import { answerJson } from '../../lib/serialized';

type Serialize = (payload: unknown) => string | Buffer;

/**
 * Records whose presenters keep their JSON with them (lib/serialized.ts): an answer holding them,
 * itself or in a top-level property, is joined from those parts, as `answerJson` reaches no deeper.
 */
const RECORDS_WITH_PARTS: ReadonlySet<z.ZodType> = new Set<z.ZodType>([
  postSchema,
  userSchema,
  commentSchema,
  userStubSchema,
]);

function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
    const inner: unknown = current.unwrap();
    current = inner as z.ZodType;
  }
  return current instanceof z.ZodArray ? (current.element as z.ZodType) : current;
}

/** Whether an answer of this schema may hold records serialized ahead. */
export function mayHoldParts(schema: z.ZodType): boolean {
  if (RECORDS_WITH_PARTS.has(unwrapped(schema))) return true;
  if (!(schema instanceof z.ZodObject)) return false;
  const fields: unknown[] = Object.values(schema.shape);
  return fields.some((field) => RECORDS_WITH_PARTS.has(unwrapped(field as z.ZodType)));
}

/** The JSON Schema fast-json-stringify compiles: the contract's output shape, in draft 7. */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { target: 'draft-7', io: 'output', unrepresentable: 'any' });
  delete json.$schema;
  return json;
}

export interface ResponseSerializerOptions {
  /** Checks every answer against its schema (tests): a mismatch is a 500 naming the route. */
  validate: boolean;
}

export class ResponseMismatchError extends Error {
  override name = 'ResponseMismatchError';
}

function textOf(json: string | Buffer): string {
  return typeof json === 'string' ? json : json.toString('utf8');
}

/** What is wrong with an answer by its schema, or null. */
function problemOf(value: unknown, schema: z.ZodType, fast: Serialize): string | null {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return z.prettifyError(parsed.error);
  try {
    // What fast-json-stringify writes of a value its schema describes whole is the same value.
    if (isDeepStrictEqual(JSON.parse(textOf(fast(value))), value)) return null;
  } catch (error) {
    return String(error);
  }
  return 'it holds fields or values its schema does not describe';
}

/** Checks what JSON.stringify writes of the answer against its schema, then serializes as usual. */
function checked(
  serialize: Serialize,
  schema: z.ZodType,
  fast: Serialize,
  route: string,
): Serialize {
  return (payload) => {
    let problem = problemOf(JSON.parse(textOf(answerJson(payload))), schema, fast);
    if (problem === null) {
      try {
        return serialize(payload);
      } catch (error) {
        problem = String(error);
      }
    }
    const message = `The answer of ${route} does not match its contract schema: ${problem}`;
    console.error(message);
    throw new ResponseMismatchError(message);
  };
}

/**
 * Fastify's serializer compiler for the API: each route's response schema from the contract is
 * compiled by fast-json-stringify, except that answers holding records serialized ahead are joined
 * from those parts (made from the same schemas by the read model).
 */
export function contractSerializerCompiler(
  options: ResponseSerializerOptions,
): FastifySerializerCompiler<z.ZodType> {
  return ({ schema, method, url, httpStatus }) => {
    // Compiled at the first answer: most routes x statuses never answer, and startup stays quick.
    let compiled: Serialize | undefined;
    const fast: Serialize = (payload) => {
      compiled ??= fastJson(jsonSchemaOf(schema)) as Serialize;
      return compiled(payload);
    };
    const serialize: Serialize = mayHoldParts(schema) ? answerJson : fast;
    if (!options.validate) return serialize as (payload: unknown) => string;
    const route = `${method} ${url} (${httpStatus})`;
    return checked(serialize, schema, fast, route) as (payload: unknown) => string;
  };
}
