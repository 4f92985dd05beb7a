/**
 * Sharing one's record (docs/contract.md §11, EHDS Art. 4(2)(a)): a person grants someone of their
 * choice access to part or all of their record and manages those grants. Six operations of the
 * table, at the COS door; a region without sharing (PROXY_GRANTS=off) answers 403 on each.
 */
import { GrantViewSchema } from '../proxies/grant-schema.js';
import { NoQuery } from './parameters.js';
import type { OperationDocs, ProxyOperation, Scope } from './operation.js';
import { GrantBody, GrantIdParams } from './proxy-parameters.js';

const READ: Scope = {
  name: 'user/Proxy-read', description: 'Read whom you share your record with, and who shares theirs with you',
  aliases: ['user/Consent.read', 'patient/Consent.rs'],
};
const WRITE: Scope = {
  name: 'user/Proxy-write', description: 'Share your record with a person of your choice, accept, decline or end a grant',
  aliases: ['user/Consent.write', 'patient/Consent.cud'],
};

const tag = {
  name: 'Sharing',
  description: 'A person shares part or all of their record with another person of their choice (EHDS Art. 4(2)), for a time or until '
    + 'they end it. Only a person acting for themselves manages sharing: no `patient` header, never a client token.',
};

const WHO_SELF = 'Only the logged-in person, for themselves: a `patient` header naming someone else, a client token or a token launched for '
  + 'another patient is refused (403). A region that does not offer sharing answers 403 on every sharing path.';
const NOT_YOURS = 'A grant that is not the caller\'s answers 404, as one that does not exist.';

const docs = (summary: string, description: string, success: string): OperationDocs =>
  ({ tag, summary, description: `${description} ${WHO_SELF}`, success });

const grant = { item: GrantViewSchema, schemaName: 'ProxyGrant' };
const common = { errorShape: 'status', vendorPaths: [], query: NoQuery } as const;

export const listProxies: ProxyOperation = {
  ...common,
  handler: 'proxy', action: 'list', method: 'GET', changes: false, scope: READ,
  displayName: { sv: 'Dina delningar av journalen visades', en: 'Your sharing of records was listed' },
  path: '/patients/proxies/',
  answer: { ...grant, array: true, status: 200 },
  docs: docs('List the grants you gave and received',
    'Every grant the caller gave (role `grantor`) or received (role `grantee`), oldest first, each with its status now. '
      + 'The grantee\'s name is shown only once they accepted.',
    'The grants, oldest first; an empty array when there are none.'),
};

export const getProxy: ProxyOperation = {
  ...common,
  handler: 'proxy', action: 'get', method: 'GET', changes: false, scope: READ, params: GrantIdParams,
  displayName: { sv: 'En delning av journalen visades', en: 'A sharing of a record was viewed' },
  path: '/patients/proxies/{id}',
  answer: { ...grant, array: false, status: 200 },
  docs: docs('Read one grant', `One grant the caller gave or received, as a new grant's \`Location\` names it. ${NOT_YOURS}`, 'The grant.'),
};

export const grantProxy: ProxyOperation = {
  ...common,
  handler: 'proxy', action: 'grant', method: 'POST', changes: true, scope: WRITE, body: GrantBody,
  displayName: { sv: 'Din journal delades med en person', en: 'Your record was shared with a person' },
  path: '/patients/proxies/',
  answer: { ...grant, array: false, status: 201 },
  docs: docs('Share your record with a person',
    'Invites the person `grantee` names to read the categories of the caller\'s record, from `validFrom` (default now) until `validTo` '
      + '(absent: until ended). The grant is `pending` until they accept; an invitation not accepted in time lapses. The grantor must be 18 or '
      + 'over; the grantee an adult who is not the grantor. A second open grant to the same person, or more open grants than the region '
      + 'allows, is 409. Nothing answers who a number belongs to.',
    'The new grant (201), its address in `Location`.'),
};

const step = (action: 'accept' | 'decline', method: 'POST', sv: string, en: string, summary: string, description: string): ProxyOperation => ({
  ...common,
  handler: 'proxy', action, method, changes: true, scope: WRITE, params: GrantIdParams,
  displayName: { sv, en },
  path: `/patients/proxies/{id}/${action}`,
  answer: { ...grant, array: false, status: 200 },
  docs: docs(summary, `${description} Harmless to repeat: the same grant, nothing changed again. ${NOT_YOURS}`, 'The grant as it is now.'),
});

export const acceptProxy = step('accept', 'POST', 'Delningen av journalen godtogs', 'Sharing of a record was accepted',
  'Accept a grant given to you', 'The grantee accepts a `pending` grant: it opens from `validFrom`. A grant that has ended cannot be accepted (409).');

export const declineProxy = step('decline', 'POST', 'Inbjudan att ta del av journalen avböjdes', 'An invitation to a record was declined',
  'Decline a grant given to you', 'The grantee declines a `pending` grant: it never opens.');

export const revokeProxy: ProxyOperation = {
  ...common,
  handler: 'proxy', action: 'revoke', method: 'DELETE', changes: true, scope: WRITE, params: GrantIdParams,
  displayName: { sv: 'Delningen av journalen avslutades', en: 'Sharing of a record was ended' },
  path: '/patients/proxies/{id}',
  answer: { ...grant, array: false, status: 200 },
  docs: docs('End a grant',
    `Either side ends a \`pending\` or \`active\` grant: nothing is read through it from the very next request. Harmless to repeat. ${NOT_YOURS}`,
    'The grant, `revoked`.'),
};

/**
 * The six in the order a person takes the steps, which the table keeps. Named here, not read from the
 * module's namespace: Node gives a namespace its names sorted, vite's module runner (the tests) in the
 * order written (test/domain/operation-order.test.ts).
 */
export const PROXY_OPERATIONS = { listProxies, getProxy, grantProxy, acceptProxy, declineProxy, revokeProxy } as const;
