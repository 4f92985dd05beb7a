import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TObject } from 'typebox';
import type { ApiRoute } from './api-routes.js';
import type { RouteDependencies } from './dependencies.js';

/** What a kind of operation adds to its route: the successful answer's schema, a body, and the handler. */
export interface RouteParts {
  /** The 200 answer as the route's response schema has it. */
  ok: unknown;
  /** The handler serialises its 200 answers itself and sends bytes: `ok` then only documents them. */
  okSentAsBytes?: true;
  body?: TObject;
  /** The path's parameters (`{id}`), validated as the query is. */
  params?: TObject;
  /** A success other than 200: 201 for what a request made. */
  okStatus?: 201;
  handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/** Builds the parts of one route of a kind of operation. */
export type RouteKind = (route: ApiRoute, deps: RouteDependencies) => RouteParts;
