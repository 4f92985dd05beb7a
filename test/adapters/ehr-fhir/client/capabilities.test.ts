/** The CapabilityStatement check, against the development server's statement. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkCapabilities, missingSearchParameters, neededSearches, readCapabilities,
} from '../../../../src/adapters/ehr-fhir/client/capabilities.js';
import { READ_NAMES } from '../../../../src/domain/operations/table.js';
import type { FhirSim } from '../../../../src/dev/fhir-sim/fhir-sim.js';
import { changedBody, clientFor, fetchExchange, recordingExchange, startDemoSim } from '../support/fhir-sim.js';

type Statement = { fhirVersion: string; rest: { searchParam: { name: string }[]; resource: { type: string; searchParam: { name: string }[] }[] }[] };

let sim: FhirSim;
let statement: Statement;
beforeAll(async () => {
  sim = await startDemoSim();
  const answer = await fetchExchange(`${sim.baseUrl}/metadata`, { method: 'GET' });
  statement = JSON.parse(String(answer.body)) as Statement;
});
afterAll(() => sim.close());

const NEEDED = neededSearches(READ_NAMES);

describe('what readiness asks of a server, by what it serves (issue 36)', () => {
  const types = (role?: 'records' | 'registry' | 'both') => neededSearches(READ_NAMES, role).map((n) => `${n.type}:${n.params.join(',')}`);
  it('asks for the registry\'s search only of the server that is the registry', () => {
    expect(types()).toContain('RelatedPerson:identifier,_tag');
    expect(types('records')).not.toContain('RelatedPerson:identifier,_tag');
    expect(types('records')).toEqual(types('both').filter((t) => t !== 'RelatedPerson:identifier,_tag'));
    expect(types('registry')).toEqual(['RelatedPerson:identifier,_tag']);
  });
});

describe('the CapabilityStatement check', () => {
  it('finds every search parameter the reads and the registry send in the development server\'s statement', async () => {
    const check = await checkCapabilities(clientFor(sim), NEEDED);
    expect(check).toMatchObject({ ready: true, wrongVersion: false, missing: [] });
    expect(check.capabilities.types.get('Appointment')).toMatchObject({ versioning: 'versioned-update', conditionalCreate: true });
    // Medplum 4.5 checks If-Match on an update but not on a PATCH: only the update is offered.
    expect([...check.capabilities.types.get('Appointment')?.interactions ?? []]).toContain('update');
    expect([...check.capabilities.types.get('Appointment')?.interactions ?? []]).not.toContain('patch');
  });

  it('needs what the reads send: by patient and time, the status, the lookup by identifier, and _id to fetch', () => {
    const needs = (type: string) => NEEDED.filter((n) => n.type === type).flatMap((n) => n.params);
    expect(needs('Appointment')).toEqual(['patient', 'date', 'status', 'patient', 'date', 'status']);
    expect(needs('MedicationRequest')).toEqual(['patient', 'authoredon']);
    expect(needs('Patient')).toEqual(['identifier', '_id']);
    expect(needs('RelatedPerson')).toEqual(['patient', 'active', 'identifier', '_tag']);
    expect(needs('Organization')).toEqual(['_id']);
  });

  it('names the type and the parameter a server lacks, whether per type or for every type', () => {
    const lacking = structuredClone(statement);
    const rest = lacking.rest[0]!;
    const appointment = rest.resource.find((r) => r.type === 'Appointment')!;
    appointment.searchParam = appointment.searchParam.filter((p) => p.name !== 'status');
    rest.searchParam = rest.searchParam.filter((p) => p.name !== '_tag');
    expect(missingSearchParameters(readCapabilities(lacking), NEEDED)).toEqual([
      { type: 'Appointment', param: 'status' }, { type: 'RelatedPerson', param: '_tag' },
    ]);
  });

  it('is not ready for a server of another FHIR version, or for one that lacks a parameter every read needs', async () => {
    const older = recordingExchange({ answer: (a) => changedBody(a, (b) => { b.fhirVersion = '3.0.2'; }) });
    expect(await checkCapabilities(clientFor(sim, { exchange: older }), NEEDED)).toMatchObject({ ready: false, wrongVersion: true });
    const without = (type: string) => recordingExchange({
      answer: (a) => changedBody(a, (b) => { (b as unknown as Statement).rest[0]!.resource = (b as unknown as Statement).rest[0]!.resource.filter((r) => r.type !== type); }),
    });
    // The patient lookup is every read's: without it nothing can be served.
    const noLookup = await checkCapabilities(clientFor(sim, { exchange: without('Patient') }), NEEDED);
    expect(noLookup.ready).toBe(false);
    expect(noLookup.missing).toContainEqual({ type: 'Patient', param: 'identifier' });
  });

  it('issue 57 item 4: a parameter one read sends makes that read unavailable, and the server stays ready for the others', async () => {
    const lacking = recordingExchange({
      answer: (a) => changedBody(a, (b) => { (b as unknown as Statement).rest[0]!.resource = (b as unknown as Statement).rest[0]!.resource.filter((r) => r.type !== 'Flag'); }),
    });
    const check = await checkCapabilities(clientFor(sim, { exchange: lacking }), NEEDED);
    expect(check.ready).toBe(true);
    expect(check.missing).toEqual([{ type: 'Flag', param: 'patient' }, { type: 'Flag', param: 'date' }]);
    expect(check.unavailable).toEqual(new Set(['getAttentionSignals']));
  });
});
