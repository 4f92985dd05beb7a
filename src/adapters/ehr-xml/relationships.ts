/**
 * Relationships (ns urn:example:ehr:relationship:1): the delegation registry of one actor. Dates
 * must be 8-digit dates; an empty `validTo` is refused rather than read as open-ended, since that
 * reading would extend someone's access.
 */
import type { Relationship, RelationshipType } from '../../domain/access/relationship.js';
import { isCompactDate } from '../../domain/time/local-time.js';
import type { DocumentInput } from './document-pieces.js';
import { documentType, plainContext } from './document.js';
import { STR } from './leaves.js';
import { malformed } from './malformed-document-error.js';
import { leaf, many, obj, req } from './shape.js';

const DATE = leaf((raw, name) => {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !isCompactDate(raw)) throw malformed(`bad ${name}`);
  return raw;
});

export const RELATIONSHIPS_DOCUMENT = documentType('Relationships', obj({
  '@actor': req(STR),
  Relationship: many(obj({ '@patient': req(STR), '@type': req(STR), '@validFrom': req(DATE), '@validTo': DATE })),
}));

const TYPES: ReadonlySet<string> = new Set<RelationshipType>(['guardian', 'power-of-attorney', 'partner']);

export function mapRelationships(xml: DocumentInput): { actor: string; relationships: Relationship[] } {
  const mapped = RELATIONSHIPS_DOCUMENT.map(xml, plainContext());
  const rows = mapped.Relationship as (Omit<Relationship, 'type'> & { type: string })[];
  return {
    actor: mapped.actor as string,
    // A type this service does not know grants nothing.
    relationships: rows.filter((r): r is Relationship => TYPES.has(r.type)),
  };
}
