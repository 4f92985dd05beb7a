/**
 * A proxy grant as an R4 Consent, and a posted Consent as a grant (docs/contract.md §11 "FHIR"): the
 * grantor is the patient and the performer, the grantee the one agent (v3 RoleClass AGNT) of a single
 * permit, by identity number until they accept and as the pair's RelatedPerson while the grant is
 * active; the categories are the provision's classes. A posted Consent is read by the same mapping,
 * and what cannot be a grant is refused naming the element.
 */
import { isStrictDateTime, rangeOf } from '../../domain/fhir/fhir-dates.js';
import { DomainError } from '../../domain/errors.js';
import { kindOfNumber, numberKindMismatch, PERSONNUMMER, personNumberKindOf, SAMORDNINGSNUMMER } from '../../domain/identity/person-number-systems.js';
import { parsePersonalIdentityNumber } from '../../domain/identity/personal-identity-number.js';
import { EVERY_CATEGORY } from '../../domain/proxies/categories.js';
import { shownValue } from '../../domain/redaction/shown-value.js';
import type { DatedGrantView, GrantStatus } from '../../domain/proxies/grant.js';
import type { GrantInstant, GrantRequest } from '../../domain/proxies/grant-request.js';
import { epochMsToOffsetIso, filterParamToCompact } from '../../domain/time/local-time.js';
import type { FhirIds } from '../../ports/fhir-ids.port.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { PROXY_CATEGORY, RESOURCE_TYPES, type ConsentClass, type ConsentClasses } from './consent-classes.js';
import { delegationRelatedPersonId } from './delegate-related-person.js';
import { elementPath, memberPath, modifierAt } from './posted-members.js';

const SCOPE = { system: 'http://terminology.hl7.org/CodeSystem/consentscope', code: 'patient-privacy' };
const CATEGORY = { system: 'http://loinc.org', code: '59284-0' };
const POLICY_RULE = { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'OPTIN' };
const AGENT = { system: 'http://terminology.hl7.org/CodeSystem/v3-RoleClass', code: 'AGNT' };
const ACCESS = { system: 'http://terminology.hl7.org/CodeSystem/consentaction', code: 'access' };

const STATUS: Readonly<Record<GrantStatus, string>> = {
  pending: 'proposed', active: 'active', declined: 'rejected', revoked: 'inactive', expired: 'inactive', lapsed: 'inactive',
};

export interface ConsentContext {
  ids: FhirIds;
  zone: string;
  classes: ConsentClasses;
}

/** The grant as its grantor's Consent. */
export function consentOf(view: DatedGrantView, ctx: ConsentContext): FhirResource {
  const grantor = { reference: `Patient/${ctx.ids.patientId(view.grantor.identityNumber)}` };
  const grantee = view.grantee;
  const identifier = { system: kindOfNumber(grantee.identityNumber).uri, value: grantee.identityNumber };
  // Once accepted and while it holds, the grantee is the pair's RelatedPerson, which exists only then.
  const reference = view.status === 'active'
    ? { reference: `RelatedPerson/${delegationRelatedPersonId(ctx.ids, grantee.identityNumber, view.grantor.identityNumber)}`, identifier }
    : { identifier };
  // From the instants, not the local times: autumn's repeated hour reads back at the offset it was given.
  const { validFromMs, validToMs, createdMs } = view.instants;
  const period = { start: epochMsToOffsetIso(validFromMs, ctx.zone), ...(validToMs === undefined ? {} : { end: epochMsToOffsetIso(validToMs, ctx.zone) }) };
  return {
    resourceType: 'Consent',
    id: view.id,
    status: STATUS[view.status],
    scope: { coding: [SCOPE] },
    category: [{ coding: [CATEGORY] }],
    patient: grantor,
    dateTime: epochMsToOffsetIso(createdMs, ctx.zone),
    performer: [grantor],
    policyRule: { coding: [POLICY_RULE] },
    provision: {
      type: 'permit',
      period,
      actor: [{ role: { coding: [AGENT] }, reference: { ...reference, ...(grantee.name === undefined ? {} : { display: grantee.name }) } }],
      action: [{ coding: [ACCESS] }],
      class: ctx.classes.classesOf(view.categories),
    },
  };
}

const invalid = (message: string): DomainError => new DomainError('INVALID_REQUEST', message);

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const listOf = (v: unknown): unknown[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const codings = (concept: unknown): Json[] => (isObject(concept) ? listOf(concept.coding).filter(isObject) : []);
const names = (concept: unknown, wanted: { system: string; code: string }): boolean =>
  codings(concept).some((c) => c.system === wanted.system && c.code === wanted.code);
/** A concept that is `wanted` and nothing else: codings all of it, at least one. */
const only = (concept: unknown, wanted: { system: string; code: string }): boolean => {
  const given = codings(concept);
  return given.length > 0 && given.every((c) => c.system === wanted.system && c.code === wanted.code);
};

/**
 * The members a grant's Consent may hold, at its top and in its provision: what the mapping reads, and
 * what restricts nothing (an id, meta, the narrative, plain extensions, which FHIR lets a reader pass
 * over). Any other member (a data period, named records, a security label, a modifier extension, a
 * policy) would narrow or qualify what is shared, which a grant cannot hold: refused, never dropped,
 * so a Consent is never taken as a wider grant than the person wrote.
 */
const CONSENT_MEMBERS: ReadonlySet<string> = new Set([
  'resourceType', 'id', 'meta', 'text', 'language', 'extension', 'status', 'scope', 'category', 'patient', 'dateTime', 'performer', 'policyRule', 'provision',
]);
const PROVISION_MEMBERS: ReadonlySet<string> = new Set(['id', 'extension', 'type', 'period', 'actor', 'action', 'class', 'provision']);
const ACTOR_MEMBERS: ReadonlySet<string> = new Set(['id', 'extension', 'role', 'reference']);
/** A posted grantee is named by number: a `reference` (a RelatedPerson exists only once a grant is active) could contradict it. */
const GRANTEE_MEMBERS: ReadonlySet<string> = new Set(['id', 'extension', 'identifier', 'display', 'type']);
const PERIOD_MEMBERS: ReadonlySet<string> = new Set(['id', 'extension', 'start', 'end']);
/** The grantee's number and its system: a `use` (a modifier: "old"), a `period` or an assigner would qualify whom it names. */
const IDENTIFIER_MEMBERS: ReadonlySet<string> = new Set(['id', 'extension', 'system', 'value']);

function onlyMembers(element: string, value: Json, known: ReadonlySet<string>): void {
  const other = Object.keys(value).find((member) => !known.has(member));
  if (other !== undefined) {
    throw invalid(`${memberPath(element, other)} is not something a grant can hold: a grant shares the whole of its classes for its period, with no other restriction. Leave it out, or share less by naming fewer classes.`);
  }
}

const CODING_MEMBERS: ReadonlySet<string> = new Set(['id', 'extension', 'system', 'version', 'code', 'display', 'userSelected']);
const CONCEPT_MEMBERS: ReadonlySet<string> = new Set(['id', 'extension', 'coding', 'text']);

/** A CodeableConcept (`element`) holds a concept's members and its codings a coding's, and no other: never dropped. */
function conceptMembers(element: string, concept: unknown): void {
  if (!isObject(concept)) return;
  onlyMembers(element, concept, CONCEPT_MEMBERS);
  for (const coding of codings(concept)) onlyMembers(`${element}.coding`, coding, CODING_MEMBERS);
}

/** Where a concept is given, it must be the one a grant's Consent has. */
function expectConcept(element: string, value: unknown, wanted: { system: string; code: string }): void {
  const given = listOf(value);
  for (const concept of given) conceptMembers(`Consent.${element}`, concept);
  if (given.length > 0 && !given.some((concept) => names(concept, wanted))) throw invalid(`Consent.${element} must be ${wanted.system}|${wanted.code}, or left out.`);
}

/**
 * A FHIR dateTime with a time and no offset: the grant's local time as written. Whole seconds only (a
 * fraction of zeros aside): a start or an end within a second would be taken wider than written.
 */
const LOCAL_TIME = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.0+)?$/;

/**
 * A FHIR dateTime as the grant's time: its first second, or with `last` the last second it covers. A
 * local time is passed on as written, so the grant's own check refuses one the clocks skip (read through
 * an instant, it would come back an hour later); any other form names its instants, passed on as one,
 * so 02:30+01:00 in autumn's repeated hour stays the second 02:30, not the first.
 */
function grantTime(element: string, value: unknown, zone: string, last: boolean): string | GrantInstant {
  const refusal = (): DomainError => invalid(`Consent.provision.period.${element} must be a FHIR dateTime, e.g. 2026-12-01T08:00:00+01:00.`);
  if (typeof value !== 'string') throw refusal();
  const local = LOCAL_TIME.exec(value)?.[1];
  if (local !== undefined) {
    // A real local time only, refused in this door's words: the grant's own check says "without a time zone".
    if (filterParamToCompact(local) === undefined) throw refusal();
    return local;
  }
  const range = isStrictDateTime(value) ? rangeOf(value, zone) : undefined;
  if (range === undefined) throw refusal();
  // On whole seconds, never wider than written: a start's fraction opens at the next second, and an end
  // covers every millisecond of its last whole second (10:00:00.100 ends with 09:59:59).
  const within = /\.\d*[1-9]/.test(value) ? 1000 : 0;
  return { epochMs: last ? Math.ceil(range.end / 1000) * 1000 - 1000 - within : Math.floor(range.start / 1000) * 1000 + within };
}

/** The grantee a provision's one actor names: an identity or coordination number, by identifier. */
function granteeOf(provision: Json): string {
  const actors = listOf(provision.actor);
  const [actor] = actors;
  if (actors.length !== 1 || !isObject(actor)) throw invalid('Consent.provision.actor must name exactly one person: the one you share your record with.');
  onlyMembers('Consent.provision.actor', actor, ACTOR_MEMBERS);
  if (isObject(actor.reference) && 'reference' in actor.reference) {
    // Not a restriction of the grant, as onlyMembers would say (hostile review helper-126): a name the number could contradict.
    throw invalid(`Consent.provision.actor.reference.reference is not taken: name the person you share with by their identity number (reference.identifier, system ${PERSONNUMMER.uri}), not by a reference.`);
  }
  if (isObject(actor.reference)) onlyMembers('Consent.provision.actor.reference', actor.reference, GRANTEE_MEMBERS);
  // The agent and nothing besides, as an action is access alone: another role beside it would qualify who reads.
  conceptMembers('Consent.provision.actor.role', actor.role);
  if (actor.role !== undefined && !only(actor.role, AGENT)) throw invalid(`Consent.provision.actor.role must be ${AGENT.system}|${AGENT.code} (agent) alone.`);
  const identifier = isObject(actor.reference) ? actor.reference.identifier : undefined;
  if (isObject(identifier)) onlyMembers('Consent.provision.actor.reference.identifier', identifier, IDENTIFIER_MEMBERS);
  const kind = isObject(identifier) && typeof identifier.system === 'string' ? personNumberKindOf(identifier.system) : undefined;
  if (!isObject(identifier) || typeof identifier.value !== 'string' || kind === undefined) {
    throw invalid(`Consent.provision.actor.reference.identifier must name the person by system ${PERSONNUMMER.uri} (or ${SAMORDNINGSNUMMER.uri}) and their number.`);
  }
  // A number that is none is the grant's own refusal (Consent.provision.actor); one of the other kind is the system's.
  const number = parsePersonalIdentityNumber(identifier.value);
  const mismatch = number === undefined ? undefined : numberKindMismatch(number, kind);
  if (mismatch !== undefined) throw invalid(`Consent.provision.actor.reference.identifier: ${mismatch}.`);
  return identifier.value;
}

/**
 * The categories a provision's classes name. None given is refused, not read as FHIR's "unrestricted":
 * a grant names what it shares on every door (the COS door's `categories` is required), so a Consent
 * that forgot its classes never shares the whole record.
 */
function categoriesOf(provision: Json, classes: ConsentClasses): string[] {
  const given = listOf(provision.class);
  if (given.length === 0) {
    throw invalid(`Consent.provision.class must name what you share, as codes of ${RESOURCE_TYPES} (e.g. Observation and DiagnosticReport for lab results); a grant never shares everything by leaving it out.`);
  }
  for (const coding of given) if (isObject(coding)) onlyMembers('Consent.provision.class', coding, CODING_MEMBERS);
  const asked = given.map((c) => (isObject(c) && typeof c.code === 'string' && (c.system === undefined || c.system === RESOURCE_TYPES || c.system === PROXY_CATEGORY)
    ? { system: c.system ?? RESOURCE_TYPES, code: c.code } : undefined));
  if (asked.some((c) => c === undefined)) {
    throw invalid(`Consent.provision.class must be codes of ${RESOURCE_TYPES} (or ${PROXY_CATEGORY}), e.g. {"system": "${RESOURCE_TYPES}", "code": "Observation"}.`);
  }
  const { categories, unknown } = classes.categoriesOf(asked as ConsentClass[]);
  if (unknown !== undefined) {
    const every = classes.classesOf([EVERY_CATEGORY]).map((c) => (c.system === RESOURCE_TYPES ? c.code : `${c.system}|${c.code}`)).join(', ');
    throw invalid(`Consent.provision.class holds ${shownValue(unknown)}, which cannot be shared alone: name every class of what you share (${every}; DiagnosticReport and Observation go together, as lab results).`);
  }
  return categories;
}

/** The grant a posted Consent asks for; a DomainError (400) naming the element otherwise. `patient`: whom it must be about, if it says. */
export function grantRequestOf(body: unknown, patientReference: string, ctx: ConsentContext): GrantRequest {
  if (!isObject(body) || body.resourceType !== 'Consent') throw invalid('The body must be a FHIR Consent resource (resourceType "Consent").');
  const modifier = modifierAt(body, 'Consent');
  if (modifier !== undefined) {
    throw invalid(`${elementPath(modifier)} is a modifier extension, which changes what it sits on: a grant cannot hold one. Leave it out.`);
  }
  onlyMembers('Consent', body, CONSENT_MEMBERS);
  if (body.status !== undefined && body.status !== 'proposed' && body.status !== 'active') throw invalid('Consent.status must be proposed (or active): a new grant waits for the person to accept it.');
  expectConcept('scope', body.scope, SCOPE);
  expectConcept('category', body.category, CATEGORY);
  expectConcept('policyRule', body.policyRule, POLICY_RULE);
  for (const element of ['patient', 'performer'] as const) {
    for (const ref of listOf(body[element])) {
      if (!isObject(ref) || ref.reference !== patientReference) throw new DomainError('FORBIDDEN', `Consent.${element} must be you (${patientReference}): you can only share your own record.`);
    }
  }
  const provisions = listOf(body.provision);
  const [provision] = provisions;
  if (provisions.length !== 1 || !isObject(provision)) throw invalid('Consent.provision must be one provision: who may read what, and when.');
  onlyMembers('Consent.provision', provision, PROVISION_MEMBERS);
  if (provision.type !== undefined && provision.type !== 'permit') throw invalid('Consent.provision.type must be permit.');
  if (provision.provision !== undefined) throw invalid('Consent.provision must not have nested provisions: a grant permits its classes, with no exceptions.');
  // Access and nothing besides: a grant reads, it never corrects or shares on.
  for (const action of listOf(provision.action)) {
    conceptMembers('Consent.provision.action', action);
    if (!only(action, ACCESS)) throw invalid(`Consent.provision.action must be ${ACCESS.system}|${ACCESS.code} alone.`);
  }
  const period = provision.period;
  if (period !== undefined && !isObject(period)) throw invalid('Consent.provision.period must be a Period with start and, if it ends, end.');
  if (period !== undefined) onlyMembers('Consent.provision.period', period, PERIOD_MEMBERS);
  const request: GrantRequest = { grantee: granteeOf(provision), categories: categoriesOf(provision, ctx.classes) };
  if (period?.start !== undefined) request.validFrom = grantTime('start', period.start, ctx.zone, false);
  if (period?.end !== undefined) request.validTo = grantTime('end', period.end, ctx.zone, true);
  return request;
}

/** The use case's refusal of a grant's member, as the Consent element that holds it. */
const ELEMENTS: Readonly<Record<string, string>> = {
  grantee: 'Consent.provision.actor', categories: 'Consent.provision.class', validFrom: 'Consent.provision.period.start',
  validTo: 'Consent.provision.period.end',
};

export function asConsentRefusal(err: unknown): unknown {
  if (!(err instanceof DomainError) || err.code !== 'INVALID_REQUEST') return err;
  const m = /^Body member (\w+)/.exec(err.message);
  const element = m?.[1] === undefined ? undefined : ELEMENTS[m[1]];
  // The other member a refusal names is the Consent's element too (validTo before validFrom).
  return element === undefined ? err : new DomainError('INVALID_REQUEST', err.message.replace(/^Body member \w+/, element).replace(/\bvalidFrom\b/g, ELEMENTS.validFrom ?? 'validFrom'));
}
