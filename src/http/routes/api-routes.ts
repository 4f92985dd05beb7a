/**
 * The API's routes, derived from the operation table: one route per method and path, serving the
 * operation(s) there (two when `api-version` chooses between layouts). Operations that share a
 * route must agree on what a route can only have once (handler, error shape, query, vendor paths);
 * a table where they do not is refused when the app is built, never served half-right.
 */
import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../domain/operations/table.js';
import type { Operation } from '../../domain/operations/operation.js';

export interface ApiRoute {
  method: Operation['method'];
  path: string;
  vendorPaths: readonly string[];
  handler: Operation['handler'];
  errorShape: Operation['errorShape'];
  /** The operations served here; the first is the one an absent `api-version` selects and the documentation names. */
  operations: readonly [OperationName, ...OperationName[]];
}

const SHARED: ReadonlyArray<keyof Operation> = ['handler', 'errorShape', 'query', 'vendorPaths'];

/** An operation table: the one in src/domain/operations, or a variant of it in a test. */
export type OperationTable = Readonly<Record<OperationName, Operation>>;

function grouped(table: OperationTable): Map<string, OperationName[]> {
  const groups = new Map<string, OperationName[]>();
  for (const name of OPERATION_NAMES) {
    const key = `${table[name].method} ${table[name].path}`;
    groups.set(key, [...(groups.get(key) ?? []), name]);
  }
  return groups;
}

function routeOf(table: OperationTable, key: string, names: OperationName[]): ApiRoute {
  // The operation an absent api-version selects comes first.
  const ordered = [...names].sort((a, b) => Number(table[a].apiVersion?.value !== undefined) - Number(table[b].apiVersion?.value !== undefined));
  const [first, ...rest] = ordered;
  if (first === undefined) throw new Error(`no operation at ${key}`);
  const head = table[first];
  for (const other of rest) {
    const op = table[other];
    for (const member of SHARED) {
      if (JSON.stringify(op[member]) !== JSON.stringify(head[member])) throw new Error(`operations ${first} and ${other} at ${key} differ in ${member}`);
    }
    if (op.apiVersion === undefined || head.apiVersion === undefined || op.apiVersion.value === head.apiVersion.value) {
      throw new Error(`operations ${first} and ${other} at ${key} are not told apart by api-version`);
    }
  }
  return {
    method: head.method, path: head.path, vendorPaths: head.vendorPaths, handler: head.handler, errorShape: head.errorShape,
    operations: [first, ...rest],
  };
}

/** Every route of the API, in the table's order; throws on operations that cannot share their route. */
export function apiRoutes(table: OperationTable = OPERATIONS): ApiRoute[] {
  return [...grouped(table)].map(([key, names]) => routeOf(table, key, names));
}

/** The `api-version` values a route accepts, each with its operation. */
export function operationByVersion(route: ApiRoute): Readonly<Record<string, OperationName>> {
  const byVersion: Record<string, OperationName> = {};
  for (const name of route.operations) {
    const value = OPERATIONS[name].apiVersion?.value;
    if (value !== undefined) byVersion[value] = name;
  }
  return byVersion;
}
