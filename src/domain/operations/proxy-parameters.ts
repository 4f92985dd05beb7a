/**
 * What the sharing routes take (docs/contract.md §11): the grant's id in the path and the body of a
 * new grant, as closed schemas. The body's form is checked here; what its values mean (a valid
 * number of an adult who is not the grantor, known categories, times in order) is the domain's
 * (src/domain/proxies/grant-request.ts), which names the member it refuses too.
 */
import { Type } from 'typebox';
import { IDENTITY_NUMBER_EXPECTED } from '../identity/personal-identity-number.js';
import { PURPOSE_MAX } from '../proxies/purpose.js';
import { LOCAL_DATE_TIME_EXPECTED } from '../time/local-time.js';
import { EXPECTED } from './parameters.js';

const closed = { additionalProperties: false } as const;

/** 128 random bits in hex, as the service makes them (src/start/proxy-grants.ts). */
export const GRANT_ID_PATTERN = '^[0-9a-f]{32}$';
const GRANT_ID = new RegExp(GRANT_ID_PATTERN);
/** Whether `id` has a grant id's form (a FHIR id may be of another, and names no grant). */
export const isGrantIdForm = (id: string): boolean => GRANT_ID.test(id);

export const GrantIdParams = Type.Object({
  id: Type.String({
    minLength: 32, maxLength: 32, pattern: GRANT_ID_PATTERN,
    description: 'The grant\'s id, as the grant\'s `Location` or the list answers it.',
    [EXPECTED]: 'a grant id as GET /patients/proxies/ lists it: 32 lower-case hexadecimal characters',
  }),
}, closed);

// Each string's form as a pattern too (OWASP API4 string-restricted): the domain still decides what a value means.
const localTime = (description: string) => Type.Optional(Type.String({
  maxLength: 19, pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}$', description, [EXPECTED]: LOCAL_DATE_TIME_EXPECTED,
}));

// The categories are the reads' scope names (src/domain/proxies/categories.ts), which are derived from
// the operation table this file is part of: the domain checks them and its refusal lists them all.
const CATEGORIES = 'the scope names of the reads (Appointment, LabResult, JournalNote, ...), or * for every read now and later';
/** More than there are categories, fewer than a flood: the domain refuses any name that is not one. */
const MAX_CATEGORIES = 64;

export const GrantBody = Type.Object({
  grantee: Type.String({
    maxLength: 13, pattern: '^[0-9]{8}-?[0-9]{4}$', description: 'The identity or coordination number of the person to share with (18 or over).',
    [EXPECTED]: IDENTITY_NUMBER_EXPECTED,
  }),
  categories: Type.Array(Type.String({ maxLength: 64, pattern: '^(?:\\*|[A-Za-z]{1,64})$', [EXPECTED]: `one of ${CATEGORIES}` }), {
    minItems: 1, maxItems: MAX_CATEGORIES,
    description: `What the grantee may read: ${CATEGORIES}. The access log and the writes can never be shared.`,
    [EXPECTED]: `an array of 1 to ${MAX_CATEGORIES} of ${CATEGORIES}`,
  }),
  validFrom: localTime('From when the grant opens, local time YYYY-MM-DDThh:mm:ss; leave it out for now.'),
  validTo: localTime('Until when the grant holds, inclusive, local time YYYY-MM-DDThh:mm:ss; leave it out for until revoked.'),
  purpose: Type.Optional(Type.String({
    maxLength: PURPOSE_MAX * 2, pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]*$', description: `Why, in the grantor's words: at most ${PURPOSE_MAX} characters.`,
    [EXPECTED]: `plain text on one line of at most ${PURPOSE_MAX} characters, without control or invisible characters`,
  })),
}, { ...closed, title: 'ProxyGrantRequest', description: 'A grant of access to part or all of the caller\'s record.' });
