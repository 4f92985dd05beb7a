/**
 * The grants a person gave, as FHIR Consents (docs/contract.md §11 "FHIR"): search and read them,
 * grant by creating one, revoke by deleting one, through the same use case, rules and limits as the
 * COS door's /patients/proxies/. The grantor's only: someone else's grant, or one the caller only
 * received, is not found. With PROXY_GRANTS=off every route answers 403.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { consentAllows, consentScopeFor, type ConsentInteraction } from '../../domain/fhir/consent-scopes.js';
import { DomainError } from '../../domain/errors.js';
import type { AuditedOperation } from '../../domain/operations/fhir-operations.js';
import { isGrantIdForm } from '../../domain/operations/proxy-parameters.js';
import type { BeforeChange, ProxyGrants } from '../../domain/proxies/proxy-grants.js';
import type { DatedGrantView } from '../../domain/proxies/grant.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { ApiError } from '../api-error.js';
import { readBeyondLaunchRefusal, SHARING_REFUSED } from '../sharing-refusals.js';
import { refuseBody } from '../no-body.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { searchLink, searchset } from './bundle.js';
import { consentClasses } from './consent-classes.js';
import { asConsentRefusal, consentOf, grantRequestOf, type ConsentContext } from './consent-resource.js';
import { launchPatientOf } from './fhir-access.js';
import type { FhirApi } from './fhir-api.js';
import { answerType } from './fhir-format.js';
import { patientIdForm, namedPatient, NOT_ALLOWED } from './patients-of-request.js';
import { prefersStrictHandling } from './prefer-handling.js';
import { parseKeptListSearch, readPatientParam } from './search-query.js';
import { formatParam } from './search-values.js';
import { presumedPatient, theCaller } from './presumed-patient.js';
import { noteRefusedFor } from '../caller-basis.js';
import { queryPairs } from './form-pairs.js';

/** The access log's names of what each interaction does (the COS door's operations of §11). */
const AUDITED = { search: 'listProxies', read: 'getProxy', create: 'grantProxy', delete: 'revokeProxy' } as const satisfies Record<ConsentInteraction, AuditedOperation>;
export const MAX_CONSENT_BYTES = 16 * 1024;

const notFound = (): ApiError => new ApiError(404, 'No Consent you gave has this id: GET /fhir/Consent?patient=<your Patient id> lists the grants you gave.');

export interface ConsentRouteOptions {
  deps: RouteDependencies;
  api: FhirApi;
  /** Answers the body as the FHIR routes do (the format asked for, room for large answers). */
  send: (request: FastifyRequest, reply: FastifyReply, body: unknown, format: string | undefined) => FastifyReply;
}

/**
 * The person whose grants these are: a person's token, with a scope that reaches Consent, acting for
 * themself to change anything (a guardian's or a proxy's launch for someone else may not grant for them).
 */
function grantorOf(request: FastifyRequest, api: FhirApi, grants: ProxyGrants | undefined, interaction: ConsentInteraction): { person: string; grants: ProxyGrants } {
  if (grants === undefined) throw new ApiError(403, SHARING_REFUSED.notOffered);
  const token = request.token;
  const person = token?.personId;
  if (token === undefined || person === undefined) throw new ApiError(403, SHARING_REFUSED.notAPerson);
  // The caller is named only once let in as grantor: a refusal here is about whom the route presumes (config below: a
  // search, read or deletion's `patient`, else the caller; a creation's caller always), so one about the launch patient
  // is in his log on the caller's basis, as on the COS door (helper-206, F1; helper-207, F1).
  const self = launchPatientOf(request, api) === person;
  const scopes = token.grantedScopes ?? token.scopes;
  // The scope first, wherever the app was opened, as the COS door's credentials check: the launch is
  // blamed only where the scope would do (hostile review helper-147, F4).
  if (!consentAllows(scopes, interaction, ['patient', 'user'])) {
    const scope = consentScopeFor(interaction, self);
    throw new ApiError(403, `The token's scopes do not allow this on Consent: ask for ${scope}.`, {
      'www-authenticate': `Bearer error="insufficient_scope", scope="${scope.split(' ')[0] ?? ''}"`,
    });
  }
  if (!self && (interaction === 'create' || interaction === 'delete')) throw new ApiError(403, SHARING_REFUSED.forSomeoneElse);
  if (!self && !consentAllows(scopes, interaction, ['user'])) throw readBeyondLaunchRefusal(consentScopeFor(interaction, false), 'Consent');
  // Their own grants: their own log, as themself.
  request.audit.patientId = person;
  request.audit.delegation = 'self';
  return { person, grants };
}

/** The caller's own grant as grantor; 404 for any other, as for one that does not exist. */
async function givenGrant(request: FastifyRequest, grants: ProxyGrants, person: string, id: string): Promise<DatedGrantView> {
  // The id asked about, where it has a grant id's form: a refusal (someone else's grant) names it too, as on the COS door.
  if (isGrantIdForm(id)) request.audit.proxyGrantId = id;
  try {
    const view = await grants.get(person, id);
    if (view.role !== 'grantor') throw notFound();
    return view;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'NOT_FOUND') throw notFound();
    throw err;
  }
}

/** Names the grant and its grantor in the request's audit, and records a change as an attempt before it is made. */
const beforeChange = (request: FastifyRequest): BeforeChange => async (grant, changes) => {
  request.audit.patientId = grant.grantor;
  request.audit.proxyGrantId = grant.id;
  if (changes) await request.server.recordWriteAttempt(request);
};

export function consentRoutes(app: FastifyInstance, { deps, api, send }: ConsentRouteOptions): void {
  const ctx: ConsentContext = { ids: api.ids, zone: deps.zone, classes: consentClasses(api) };
  // A grantor manages their own grants, whatever app launch they come from: a refusal is about them unless it names someone.
  const aboutCaller = presumedPatient(api, { caller: true });
  // A creation serves no `patient`: refused before it named the caller, it is theirs whatever one says (helper-207, F1; helper-208, F1).
  const config = (interaction: ConsentInteraction) => ({
    operation: AUDITED[interaction], errorShape: 'fhir', fhir: true, presumedPatient: interaction === 'create' ? theCaller : aboutCaller,
  } as const);
  const consentUrl = (id: string): string => `${api.publicBaseUrl}/fhir/Consent/${id}`;
  const isPatientIdForm = patientIdForm(api);
  /**
   * The grantor and the answer's format of a request that names no one but the grantor: `patient` (as
   * `patientOf` reads it from the parameters) other than theirs is refused as any patient one may not act for.
   */
  const grantorAlone = <P extends { patient?: string }>(request: FastifyRequest, interaction: ConsentInteraction, parse: (params: [string, string][]) => P) => {
    const params = queryPairs(request);
    const format = formatParam(params);
    answerType(request, format);
    const grantor = grantorOf(request, api, deps.proxyGrants, interaction);
    let parsed: P;
    try {
      parsed = parse(params);
    } catch (err) {
      // Refused before the grantor's own grants were looked at: about whom the parameters name (the presumption), not the grantor.
      delete request.audit.patientId;
      delete request.audit.delegation;
      throw err;
    }
    if (parsed.patient !== undefined && parsed.patient !== api.ids.patientId(grantor.person)) {
      const named = namedPatient(request, api, parsed.patient);
      if (named !== undefined) noteRefusedFor(request, named);
      throw new ApiError(403, NOT_ALLOWED);
    }
    return { ...grantor, format, parsed };
  };
  // A Consent by id names its patient by `patient` alone, once; any other parameter naming one is 400, as on every read by id.
  const byId = (request: FastifyRequest, interaction: 'read' | 'delete') => grantorAlone(request, interaction, (params) => {
    const patient = readPatientParam(params, isPatientIdForm);
    return patient === undefined ? {} : { patient };
  });

  app.get('/Consent', { config: config('search') }, async (request, reply) => {
    const strict = prefersStrictHandling(request.headers.prefer);
    const { person, grants, format, parsed: search } = grantorAlone(request, 'search', (params) => parseKeptListSearch('Consent', params, { strict, isPatientIdForm }));
    const own = `Patient/${api.ids.patientId(person)}`;
    const given = (await grants.list(person)).filter((g) => g.role === 'grantor' && (search.ids?.has(g.id) ?? true)).map((g) => consentOf(g, ctx));
    const totalOnly = search.count === 0;
    const link = searchLink(api.publicBaseUrl, 'Consent', [
      ['patient', own], ...(search.ids === undefined ? [] : [['_id', [...search.ids].join(',')] as [string, string]]),
      ...(totalOnly ? [['_count', '0'] as [string, string]] : []),
    ]);
    const page = { total: given.length, matches: totalOnly ? [] : given, includes: [], self: link, subsetted: false };
    return send(request, reply, searchset(api.publicBaseUrl, page), format);
  });

  app.get('/Consent/:id', { config: config('read') }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const { person, grants, format } = byId(request, 'read');
    const view = await givenGrant(request, grants, person, id);
    request.audit.proxyGrantId = view.id;
    return send(request, reply, consentOf(view, ctx), format);
  });

  app.post('/Consent', { config: config('create'), bodyLimit: MAX_CONSENT_BYTES }, async (request, reply) => {
    const format = formatParam(queryPairs(request));
    answerType(request, format);
    const { person, grants } = grantorOf(request, api, deps.proxyGrants, 'create');
    let consent: FhirResource;
    try {
      const asked = grantRequestOf(request.body, `Patient/${api.ids.patientId(person)}`, ctx);
      consent = consentOf(await grants.give(person, asked, beforeChange(request)), ctx);
    } catch (err) {
      throw asConsentRefusal(err);
    }
    reply.code(201).header('location', consentUrl(consent.id));
    return send(request, reply, consent, format);
  });

  app.delete('/Consent/:id', { config: config('delete') }, async (request, reply) => {
    refuseBody(request, 'DELETE /fhir/Consent/{id}');
    const { id } = request.params as { id: string };
    const { person, grants, format } = byId(request, 'delete');
    await givenGrant(request, grants, person, id);
    return send(request, reply, consentOf(await grants.revoke(person, id, beforeChange(request)), ctx), format);
  });
}
