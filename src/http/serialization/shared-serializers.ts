import type { FastifySerializerCompiler } from 'fastify';
import fastJsonStringify from 'fast-json-stringify';
import { compiledOnce } from '../compiled-once.js';

/** A compiled serialiser: a value as the JSON its schema allows. */
export type Serialise = (data: unknown) => string;

/** The fast-json-stringify serialiser of `schema`, compiled on first use of its content (compiled-once.ts). */
export const serialiserOf: (schema: unknown) => Serialise = compiledOnce((schema) =>
  fastJsonStringify(schema as Parameters<typeof fastJsonStringify>[0]) as Serialise);

/**
 * Fastify's response serializer compiler, once per schema (serialiserOf) instead of once per route and
 * status. A read is served at its spec path and its vendor paths with the same response schemas, and
 * every route answers its errors in one of two shared shapes, so the default compiled the same
 * schema again for each URL and status: 50 serializers where 28 differ, whose generated source (up
 * to 300 KB for a journal answer) and code stay in the heap for the life of the process, and the
 * collector lets the heap grow to twice what is live (BENCHMARKS.md, issue 20 item 6).
 *
 * Same output as fastify's default: no `addSchema` and no `serializerOpts` in this service, so the
 * default is `fastJsonStringify(schema)` too.
 */
export function sharedSerializerCompiler(): FastifySerializerCompiler<unknown> {
  return ({ schema }) => serialiserOf(schema);
}

/**
 * `compile` for a route that serialises its 200 answers itself and sends them as bytes
 * (records-route.ts, sliced-json.ts): fastify gets no serializer for them, only for the route's
 * errors. Compiled and never called, the reads' 200 serializers kept 1.5 MiB of the idle heap alive
 * (39.0 -> 37.5 MiB). Should fastify ever be handed such an answer as an object, it throws: a 500,
 * never a body written past the route's own serializer.
 */
export function answersSentAsBytes(compile: FastifySerializerCompiler<unknown>): FastifySerializerCompiler<unknown> {
  return (route) => (route.httpStatus === '200' ? sentAsBytes : compile(route));
}

const sentAsBytes: Serialise = () => {
  throw new Error('this route sends its 200 answers as bytes it serialised itself; fastify has no serializer for them');
};
