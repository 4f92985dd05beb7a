import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../../domain/operations/table.js';
import type { Tag } from '../../domain/operations/operation.js';

/** The vendor's own paths have a group of their own in the document. */
export const VENDOR_TAG: Tag = {
  name: 'Vendor paths',
  description: "The same operations at the paths of the EHR vendor's own API (Cambio Open Services), so a client written "
    + 'for the vendor works unchanged. Each one needs the same scope, answers the same body and errors, and is audited '
    + 'under the same operation name as the path it stands for.',
};

/** How the OpenAPI document groups operations: each operation's tag, in the table's order, then the vendor paths. */
export function tags(): Tag[] {
  const byName = new Map<string, Tag>();
  for (const name of OPERATION_NAMES) byName.set(OPERATIONS[name].docs.tag.name, OPERATIONS[name].docs.tag);
  return [...byName.values(), VENDOR_TAG];
}

/** The documentation fields of a route's schema: operationId, tags, summary, description. */
export function documented(operation: OperationName): { operationId: string; tags: string[]; summary: string; description: string } {
  const { docs } = OPERATIONS[operation];
  return { operationId: operation, tags: [docs.tag.name], summary: docs.summary, description: docs.description };
}
