/**
 * The grant object of the COS door (docs/contract.md §11) as a schema: the routes serialise every
 * answer through it, so nothing of a stored grant beyond these members can ever leave.
 */
import { Type } from 'typebox';

const COMPACT = { pattern: '^[0-9]{14}$', description: 'Local time, 14 digits YYYYMMDDhhmmss.' };
const NUMBER = { pattern: '^[0-9]{12}$', description: 'A Swedish personal identity or coordination number, 12 digits.' };

const Party = Type.Object({
  identityNumber: Type.String(NUMBER),
  name: Type.Optional(Type.String({ maxLength: 200, description: 'Shown once known: the grantee\'s only after they accepted.' })),
}, { additionalProperties: false });

export const GrantViewSchema = Type.Object({
  id: Type.String({ pattern: '^[0-9a-f]{32}$', description: 'Opaque and unguessable.' }),
  status: Type.Union([
    Type.Literal('pending'), Type.Literal('active'), Type.Literal('declined'), Type.Literal('revoked'), Type.Literal('expired'), Type.Literal('lapsed'),
  ]),
  role: Type.Union([Type.Literal('grantor'), Type.Literal('grantee')], { description: 'The caller\'s role in the grant.' }),
  grantor: Party,
  grantee: Party,
  categories: Type.Array(Type.String({ maxLength: 64 }), { minItems: 1, maxItems: 64 }),
  validFrom: Type.String(COMPACT),
  validTo: Type.Optional(Type.String(COMPACT)),
  purpose: Type.Optional(Type.String({ maxLength: 200 })),
  created: Type.String(COMPACT),
  changed: Type.String(COMPACT),
  endedBy: Type.Optional(Type.Union([Type.Literal('grantor'), Type.Literal('grantee'), Type.Literal('support')])),
}, { additionalProperties: false, title: 'ProxyGrant', description: 'A proxy grant as the caller sees it.' });
