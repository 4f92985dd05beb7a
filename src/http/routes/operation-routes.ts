import type { FastifyPluginAsync } from 'fastify';
import { Type, type TObject, type TSchema } from 'typebox';
import type { Operation } from '../../domain/operations/operation.js';
import { OPERATIONS } from '../../domain/operations/table.js';
import { documented, VENDOR_TAG } from '../openapi/operation-docs.js';
import { errorResponses } from '../schemas/errors.js';
import { PatientHeadersSchema } from '../schemas/requests.js';
import { answersSentAsBytes, sharedSerializerCompiler } from '../serialization/shared-serializers.js';
import { accessLogRoute } from './access-log-route.js';
import { apiRoutes, operationByVersion } from './api-routes.js';
import type { RouteDependencies } from './dependencies.js';
import { proxyRoute } from './proxy-routes.js';
import { recordsRoute } from './records-route.js';
import type { RouteKind } from './route-parts.js';
import { arrivalRoute, paymentRoute } from './write-routes.js';

/** How each kind of operation is served; a kind without an entry here does not compile. */
const KINDS: Readonly<Record<Operation['handler'], RouteKind>> = {
  records: recordsRoute,
  accessLog: accessLogRoute,
  arrival: arrivalRoute,
  payment: paymentRoute,
  proxy: proxyRoute,
};

/** A path as the table writes it (`{id}`, as OpenAPI does) in fastify's form (`:id`). */
const routerPath = (path: string): string => path.replace(/\{([A-Za-z]+)\}/g, ':$1');

/** The query a vendor path takes: the operation's, and the vendor's names of its parameters beside them. */
function vendorQuery(op: Operation): TObject {
  const names = Object.entries(op.vendorQueryNames ?? {});
  if (names.length === 0) return op.query;
  const properties: Record<string, TSchema> = { ...op.query.properties };
  for (const [vendorName, name] of names) {
    const own = op.query.properties[name];
    if (own === undefined) throw new Error(`vendor query name ${vendorName} stands for ${name}, which the operation does not take`);
    properties[vendorName] = own;
  }
  return Type.Object(properties, { additionalProperties: false });
}

/**
 * Every operation of the table at its spec path and its vendor paths: the same configuration
 * (operation, scope, audit name, error shape) and handler at each URL; only the documentation of a
 * vendor path differs, an operationId of its own and the vendor tag.
 */
export const operationRoutes: FastifyPluginAsync<RouteDependencies> = async (app, deps) => {
  const shared = sharedSerializerCompiler();
  for (const route of apiRoutes()) {
    const [operation] = route.operations;
    const parts = KINDS[route.handler](route, deps);
    const serializerCompiler = parts.okSentAsBytes === true ? answersSentAsBytes(shared) : shared;
    const schema = {
      ...documented(operation),
      headers: PatientHeadersSchema,
      querystring: OPERATIONS[operation].query,
      ...(parts.body === undefined ? {} : { body: parts.body }),
      ...(parts.params === undefined ? {} : { params: parts.params }),
      response: { [parts.okStatus ?? 200]: parts.ok, ...errorResponses(route.errorShape, route.handler === 'records') },
    };
    const config = { operation, operationByVersion: operationByVersion(route), errorShape: route.errorShape };
    const vendorSchema = {
      ...schema, operationId: `${operation}AtVendorPath`, tags: [VENDOR_TAG.name], querystring: vendorQuery(OPERATIONS[operation]),
    };
    for (const [url, documentedAs] of [[route.path, schema], ...route.vendorPaths.map((path) => [path, vendorSchema] as const)] as const) {
      app.route({ method: route.method, url: routerPath(url), config, schema: documentedAs, serializerCompiler, handler: parts.handle });
    }
  }
};
