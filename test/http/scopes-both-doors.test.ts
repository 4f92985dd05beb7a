/**
 * A scope means the same on both doors (docs/contract.md#scopes; hostile review helper-141, F1): a
 * COS read answers all its records at once, so a SMART scope (v1 or v2, `*` too) opens it exactly
 * when, in a context that reaches the patient, it lets the FHIR door search every type the read's
 * records are written as, with no category restriction; and the SMART spellings of the COS scopes
 * (`patient/JournalNote.read`) open the read's FHIR types as the COS scope does.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalScope } from '../../src/domain/access/scopes.js';
import { OPERATIONS, READ_NAMES, type ReadName } from '../../src/domain/operations/table.js';
import type { FhirForm } from '../../src/reads/as-fhir.js';
import { READ_SOURCES } from '../../src/reads/source-table.js';
import { startTestApp, TEST_FHIR_IDS, type TestApp } from '../support/test-app.js';
import { delegationRelatedPersonId } from '../../src/http/fhir/delegate-related-person.js';
import { bundleOf, get, LILLA, MARTA, matchesOf, NOW, pid, smartToken, TOLVAN } from './fhir/fhir-calls.js';

/** The FHIR types a read's records are written as (its folder's form). */
const typesOf = (read: ReadName): readonly string[] => (READ_SOURCES[read].asFhir as FhirForm<ReadName> | string as { types?: readonly string[] }).types ?? [];
const cosUrl = (read: ReadName): string => `${OPERATIONS[read].path}${read === 'getPatientV2' ? '?api-version=v2' : ''}`;
const fhirUrl = (type: string, patient: string): string => (type === 'Patient' ? `/fhir/Patient?_id=${pid(patient)}` : `/fhir/${type}?patient=${pid(patient)}`);
/**
 * Whether `patient/<type>.read` counts as the read's COS scope outright (contract §2): the vendor's
 * `…/Observation.read` the lab results, `…/Condition.read` the diagnoses, and `…/Patient.read`, the
 * SMART form of `user/Patient-read`, the patient in either layout.
 */
const namesRead = (type: string, read: ReadName): boolean => canonicalScope(`patient/${type}.read`) === OPERATIONS[read].scope.name;

describe('a scope opens the same records on the COS door and on /fhir', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: NOW });
  }, 60_000);
  afterAll(async () => t.close());

  const cos = async (token: string, url: string, patient?: string): Promise<number> =>
    (await t.call({ method: 'GET', url, token, ...(patient === undefined ? {} : { patient }) })).statusCode;
  const fhir = async (token: string, url: string): Promise<number> => (await get(t, url, token)).statusCode;
  /** Whether a FHIR search shows anything: a type not granted is 403, a Patient not granted an empty Bundle. */
  const fhirShows = async (token: string, url: string): Promise<boolean> => {
    const res = await get(t, url, token);
    return res.statusCode === 200 && (res.json() as { total?: number }).total !== 0;
  };

  it('opens the access log with patient/ and user/ AuditEvent v2 scopes, as /fhir/AuditEvent', async () => {
    for (const scope of ['patient/AuditEvent.rs', 'user/AuditEvent.rs', 'patient/AuditEvent.s', 'user/AuditEvent.cruds']) {
      const token = await smartToken(t, TOLVAN, scope);
      expect([scope, await cos(token, '/patients/accesslog/'), await fhir(token, '/fhir/AuditEvent')]).toEqual([scope, 200, 200]);
    }
  });

  it('opens every COS read and the access log with patient/*.rs and patient/*.read, as every FHIR type', async () => {
    for (const scope of ['patient/*.rs', 'patient/*.read', 'user/*.s']) {
      const token = await smartToken(t, TOLVAN, scope);
      for (const read of READ_NAMES) expect([scope, read, await cos(token, cosUrl(read))]).toEqual([scope, read, 200]);
      expect([scope, await cos(token, '/patients/accesslog/')]).toEqual([scope, 200]);
    }
  });

  it('opens a read whose every type the scopes let the FHIR door search; one type short, it is 403 on the COS door', async () => {
    for (const read of READ_NAMES) {
      const types = typesOf(read);
      const all = await smartToken(t, TOLVAN, types.map((type) => `patient/${type}.rs`).join(' '));
      expect([read, await cos(all, cosUrl(read))]).toEqual([read, 200]);
      for (const type of types) expect([read, type, await fhir(all, fhirUrl(type, TOLVAN))]).toEqual([read, type, 200]);
      if (types.length < 2) continue;
      for (const left of types) {
        const scope = types.filter((type) => type !== left).map((type) => `patient/${type}.rs`).join(' ');
        const short = await smartToken(t, TOLVAN, scope);
        const named = types.some((type) => type !== left && namesRead(type, read));
        expect([read, scope, await cos(short, cosUrl(read))]).toEqual([read, scope, named ? 200 : 403]);
        expect([read, left, await fhirShows(short, fhirUrl(left, TOLVAN))]).toEqual([read, left, false]);
      }
    }
  });

  it('reads a v2 form as its v1 form: patient/Observation.rs opens the lab results as patient/Observation.read does', async () => {
    for (const scope of ['patient/Observation.rs', 'patient/Observation.read', 'user/Condition.s', 'patient/Condition.read']) {
      const token = await smartToken(t, TOLVAN, scope);
      const read = scope.includes('Observation') ? 'getLabResults' : 'getDiagnoses';
      expect([scope, await cos(token, cosUrl(read))]).toEqual([scope, 200]);
    }
  });

  it('opens the video meetings with patient/Appointment.read, as /fhir/Appointment shows them', async () => {
    const token = await smartToken(t, TOLVAN, 'patient/Appointment.read');
    expect([await cos(token, '/patients/videomeetings/'), await cos(token, '/patients/appointments/'), await fhir(token, '/fhir/Appointment')]).toEqual([200, 200, 200]);
  });

  it('opens nothing on either door with a scope that reads by id only, restricts a category, or names another context', async () => {
    const refused: Array<[string, ReadName]> = [
      ['patient/Composition.r', 'getJournalNotes'],
      ['patient/Observation.rs?category=http://terminology.hl7.org/CodeSystem/observation-category|laboratory', 'getLabResults'],
      ['patient/AuditEvent.r', 'getJournalNotes'],
      ['system/*.rs', 'getJournalNotes'],
      ['patient/*.cud', 'getJournalNotes'],
      ['patient/*.write', 'getAppointments'],
    ];
    for (const [scope, read] of refused) {
      const token = await smartToken(t, TOLVAN, scope);
      expect([scope, await cos(token, cosUrl(read))]).toEqual([scope, 403]);
    }
    for (const scope of ['patient/AuditEvent.r', 'system/*.rs', 'patient/*.cud']) {
      const token = await smartToken(t, TOLVAN, scope);
      expect([scope, await cos(token, '/patients/accesslog/')]).toEqual([scope, 403]);
    }
    const byIdOnly = await smartToken(t, TOLVAN, 'patient/Composition.r');
    expect(await fhir(byIdOnly, '/fhir/Composition')).toBe(403);
  });

  it('opens the read\'s FHIR types with the SMART spelling of a COS scope, as the COS scope does', async () => {
    for (const scope of ['patient/JournalNote.read', 'user/JournalNote.read', 'user/JournalNote-read']) {
      const token = await smartToken(t, TOLVAN, scope);
      expect([scope, await cos(token, '/patients/journalnotes/'), await fhir(token, '/fhir/Composition')]).toEqual([scope, 200, 200]);
    }
    const labs = await smartToken(t, TOLVAN, 'patient/LabResult.read');
    expect([await cos(labs, '/patients/labresults/'), await fhir(labs, '/fhir/DiagnosticReport'), await fhir(labs, '/fhir/Observation')]).toEqual([200, 200, 200]);
  });

  // Hostile review helper-142, F2: a search-only spelling of a COS scope let /fhir read by id too, and .r granted nothing.
  it('grants a v2 spelling of a COS scope the letters it names: .s searches and never reads by id, .r reads by id and opens no COS read', async () => {
    const everything = await smartToken(t, TOLVAN, 'patient/*.rs');
    const note = (matchesOf(bundleOf(await get(t, '/fhir/Composition', everything)))[0]?.id) ?? '';
    const report = (matchesOf(bundleOf(await get(t, '/fhir/DiagnosticReport', everything)))[0]?.id) ?? '';
    const event = (matchesOf(bundleOf(await get(t, '/fhir/AuditEvent?_count=1', everything)))[0]?.id) ?? '';
    expect([note, report, event].every((id) => id !== '')).toBe(true);
    const cases: Array<[string, string, string, string]> = [
      ['user/JournalNote.s', '/patients/journalnotes/', '/fhir/Composition', `/fhir/Composition/${note}`],
      ['user/LabResult.s', '/patients/labresults/', '/fhir/DiagnosticReport', `/fhir/DiagnosticReport/${report}`],
      ['user/AccessLog.s', '/patients/accesslog/', '/fhir/AuditEvent', `/fhir/AuditEvent/${event}`],
    ];
    for (const [scope, cosPath, search, byId] of cases) {
      const searchOnly = await smartToken(t, TOLVAN, scope);
      expect([scope, await cos(searchOnly, cosPath), await fhir(searchOnly, search), await fhir(searchOnly, byId)]).toEqual([scope, 200, 200, 403]);
      const byIdOnly = await smartToken(t, TOLVAN, scope.replace(/\.s$/, '.r'));
      expect([scope, await cos(byIdOnly, cosPath), await fhir(byIdOnly, search), await fhir(byIdOnly, byId)]).toEqual([scope, 403, 403, 200]);
    }
  });

  // Hostile review helper-142, F4 and F5 (MEDIUM, older than ScopeGrants): a category restriction, which neither an AuditEvent nor a
  // Patient can pass (neither has a category), showed the whole access log on /fhir/AuditEvent and the whole Patient in $summary.
  it('shows no AuditEvent and no $summary subject for a scope restricted by a category, as the COS door opens neither', async () => {
    const everything = await smartToken(t, TOLVAN, 'patient/*.rs');
    const event = (matchesOf(bundleOf(await get(t, '/fhir/AuditEvent?_count=1', everything)))[0]?.id) ?? '';
    expect(event).not.toBe('');
    for (const scope of ['patient/*.rs?category=x', 'patient/AuditEvent.read?category=x', 'patient/AuditEvent.rs?category=http://example.org|x']) {
      const restricted = await smartToken(t, TOLVAN, scope);
      expect([scope, await cos(restricted, '/patients/accesslog/'), await fhir(restricted, '/fhir/AuditEvent'), await fhir(restricted, `/fhir/AuditEvent/${event}`)])
        .toEqual([scope, 403, 403, 403]);
    }
    for (const scope of ['patient/*.rs?category=x', 'patient/Patient.rs?category=x']) {
      const restricted = await smartToken(t, TOLVAN, scope);
      const summary = await get(t, `/fhir/Patient/${pid(TOLVAN)}/$summary`, restricted);
      expect([scope, summary.statusCode, await fhir(restricted, `/fhir/Patient/${pid(TOLVAN)}`), summary.body.includes(TOLVAN)]).toEqual([scope, 404, 404, false]);
    }
    expect((await get(t, `/fhir/Patient/${pid(TOLVAN)}/$summary`, everything)).statusCode).toBe(200);
  });

  // Hostile review helper-143, F1: the delegate's own RelatedPerson (their fhirUser) was read by id under a grant restricted by a
  // category it cannot have, or one of the patient read's own scope, whose records it is not.
  it('reads the delegate\'s own RelatedPerson only with a RelatedPerson scope unrestricted by category', async () => {
    const url = `/fhir/RelatedPerson/${delegationRelatedPersonId(TEST_FHIR_IDS, MARTA, LILLA)}`;
    const launched = (scope: string) => smartToken(t, MARTA, scope, { smart_patient: pid(LILLA) });
    for (const scope of ['patient/*.rs?category=x', 'patient/RelatedPerson.r?category=x', 'user/RelatedPerson.r?category=x', 'user/Patient-read']) {
      const res = await get(t, url, await launched(scope));
      expect([scope, res.statusCode === 200, res.body.includes('Ström')]).toEqual([scope, false, false]);
    }
    for (const scope of ['patient/RelatedPerson.r', 'patient/*.rs']) expect([scope, await fhir(await launched(scope), url)]).toEqual([scope, 200]);
  });

  // Hostile review helper-142, F1: sharing opened through v2 spellings of its scopes no one listed.
  it('opens sharing in the spellings its scopes list alone', async () => {
    for (const scope of ['user/Consent.s', 'user/Consent.rs', 'user/Proxy.s', 'patient/Proxy.rs', 'user/Proxy.cruds']) {
      const res = await t.call({ method: 'GET', url: '/patients/proxies/', token: await smartToken(t, TOLVAN, scope) });
      expect([scope, res.statusCode, res.headers['www-authenticate']]).toEqual([scope, 403, 'Bearer error="insufficient_scope", scope="user/Proxy-read"']);
    }
  });

  it('gives a client token the same reads through system/ scopes, and the SMART spelling of a COS scope on /fhir too', async () => {
    const appointments = await t.clientToken({ scope: 'system/Appointment.rs' });
    expect([await cos(appointments, '/patients/appointments/', TOLVAN), await cos(appointments, '/patients/videomeetings/', TOLVAN),
      await fhir(appointments, fhirUrl('Appointment', TOLVAN))]).toEqual([200, 200, 200]);
    const everything = await t.clientToken({ scope: 'system/*.rs' });
    expect([await cos(everything, '/patients/accesslog/', TOLVAN), await cos(everything, '/patients/journalnotes/', TOLVAN)]).toEqual([200, 200]);
    const notes = await t.clientToken({ scope: 'user/JournalNote.read' });
    expect([await cos(notes, '/patients/journalnotes/', TOLVAN), await fhir(notes, fhirUrl('Composition', TOLVAN))]).toEqual([200, 200]);
    // A v2 user/ form is a person's scope: a client token reaches nobody with it, on either door (helper-142, F3).
    for (const scope of ['user/AuditEvent.rs', 'user/Observation.rs', 'user/Appointment.rs', 'user/JournalNote.rs']) {
      const personForm = await t.clientToken({ scope });
      const [read] = scope.includes('AuditEvent') ? ['/patients/accesslog/'] : scope.includes('Observation') ? ['/patients/labresults/']
        : scope.includes('Appointment') ? ['/patients/appointments/'] : ['/patients/journalnotes/'];
      const type = scope.split('/')[1]?.split('.')[0] === 'JournalNote' ? 'Composition' : scope.split('/')[1]?.split('.')[0] ?? '';
      expect([scope, await cos(personForm, read ?? '', TOLVAN), await fhir(personForm, fhirUrl(type, TOLVAN))]).toEqual([scope, 403, 403]);
    }
    const patientForm = await t.clientToken({ scope: 'patient/*.rs' });
    expect([await cos(patientForm, '/patients/journalnotes/', TOLVAN), await fhir(patientForm, fhirUrl('Composition', TOLVAN))]).toEqual([403, 403]);
  });
});
