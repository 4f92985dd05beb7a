/**
 * `GET /fhir/Patient/<id>/$summary` (docs/fhir-api.md#patient-summary): the patient's International
 * Patient Summary (IPS 2.0.0) as a document Bundle, made of the very resources the reads answer and
 * under their rules. The patient is decided as a read of their Patient is (someone the caller may not
 * read is 404), and the token must grant that read; each section's type is in it only where the token
 * may search it; what the release policy withheld is marked as a search marks it; the request is
 * audited once, under the summary's own operation. A proxy whose grant leaves out the `Patient`
 * category gets the summary of its categories, its subject only the grantor's number and name
 * (summary-subject.ts), as the contract's §11 says.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { withReferenced } from '../../domain/fhir/document-references.js';
import { compositionSection, IPS_SECTIONS, type SectionContent } from '../../domain/fhir/ips-sections.js';
import { keyOf, sortMatches } from '../../domain/fhir/resource-search.js';
import { grantsFor, grantsRecord, passesCategory, readsGranted } from '../../domain/fhir/smart-scopes.js';
import { reachesRead } from '../../domain/access/operation-reach.js';
import { DomainError } from '../../domain/errors.js';
import type { ReadName } from '../../domain/operations/table.js';
import type { FhirResource } from '../../reads/as-fhir.js';
import { ApiError } from '../api-error.js';
import { noteWithheld } from '../release-header.js';
import type { RouteDependencies } from '../routes/dependencies.js';
import { documentBundle } from './bundle.js';
import { categoriesOf, contextsFor, grantsOf, isReferenced, readOfRecord, recordsView, requireGrants, showable } from './fhir-access.js';
import type { FhirApi, TypeServing } from './fhir-api.js';
import { patientResources } from './patient-records.js';
import { noteRefusedFor } from '../caller-basis.js';
import { namedPatient, samePatient } from './patients-of-request.js';
import { knownSubject } from './summary-subject.js';
import type { WrittenForms } from './written-forms.js';

const LOINC = 'http://loinc.org';

/**
 * The document's author: this service, which assembles it on request. A Device, since no person or
 * organisation wrote it (FHIR's Composition.author allows one); it has no required element to invent.
 */
const SERVICE: FhirResource = {
  resourceType: 'Device', id: 'patient-data-access-service',
  deviceName: [{ name: 'Patient Data Access Service', type: 'user-friendly-name' }],
};

const notFound = (): ApiError => new ApiError(404, 'No Patient with this id is readable with this token: GET /fhir/Patient lists the patients it reads.');

export class PatientSummary {
  private readonly served: ReadonlyMap<string, TypeServing>;

  constructor(private readonly deps: RouteDependencies, private readonly api: FhirApi, private readonly written: WrittenForms, served: readonly TypeServing[]) {
    this.served = new Map(served.map((s) => [s.type, s]));
  }

  private readsOf(type: string): readonly ReadName[] {
    return this.served.get(type)?.reads ?? [];
  }

  /** `patientParam`: a `patient` parameter's id, which must name the summary's own patient (else 404, as on a read by id). */
  async document(request: FastifyRequest, reply: FastifyReply, id: string, now: Date, patientParam?: string): Promise<Record<string, unknown>> {
    const patient = namedPatient(request, this.api, id);
    if (patient === undefined) throw notFound();
    request.audit.patientId = patient;
    if (patientParam !== undefined && !samePatient(this.api, patientParam, patient)) {
      noteRefusedFor(request, patient);
      throw notFound();
    }
    const grants = grantsOf(request, this.api);
    const contexts = contextsFor(request, this.api, patient);
    let subjectGrants;
    try {
      subjectGrants = requireGrants(grants, 'Patient', 'read', contexts);
    } catch (err) {
      // As a read by id: the launch patient's refusal names the scope to ask for, anyone else's Patient is just not there.
      if (contexts.every((c) => c === 'user')) throw notFound();
      throw err;
    }
    const sections = IPS_SECTIONS.map((section) => ({ section, grants: grantsFor(grants, section.type, 'search', contexts) }));
    const sectionReads = sections.flatMap((s) => readsGranted(this.readsOf(s.section.type), s.grants));
    const patientReads = this.readsOf('Patient');
    let found;
    try {
      // A section's entries come only where the caller's access reaches them (a proxy's categories), and so does the whole subject.
      found = await patientResources(request, this.deps, this.api, this.written, patient, patientReads, sectionReads, 'leave-out');
    } catch (err) {
      if (err instanceof DomainError && err.code === 'ACCESS_DENIED') throw notFound();
      throw err;
    }
    const { access } = found;
    const subject = patientReads.some((read) => reachesRead(access, read))
      ? found.resources.find((r) => r.resourceType === 'Patient' && r.id === id)
      : knownSubject(this.api, this.written, this.deps.zone, patient, access.patientRecords);
    // As a read by id of the Patient: a grant whose category the subject lacks shows it not (hostile review helper-142, F5).
    if (subject === undefined || !passesCategory(subjectGrants, categoriesOf(subject))) throw notFound();
    const contents = sections.map(({ section, grants: granted }) => {
      const ofType = found.resources.filter((r) => r.resourceType === section.type);
      const entries = sortMatches(ofType.filter((r) => grantsRecord(granted, readOfRecord(found.readOf, r), categoriesOf(r))), section.type, this.deps.zone);
      const sectionReads = this.readsOf(section.type);
      const released = sectionReads.every((read) => (found.withheldBy.get(read) ?? 0) === 0);
      // A section whose reads the caller's access does not reach (a proxy's other categories) is withheld, never told empty.
      const taken = sectionReads.length === 0 || sectionReads.some((read) => found.withheldBy.has(read));
      return { section, content: { entries, withheld: granted.length === 0 || !taken || entries.length < ofType.length || !released } satisfies SectionContent };
    });
    // What the entries name, where the token's scopes show it and the caller's access opens its type (an include's rule).
    const held = withReferenced([subject, SERVICE, ...contents.flatMap((c) => c.content.entries)], found.resources,
      showable(recordsView(found, grants, contexts, this.served)));
    const byKey = new Map(held.map((r) => [keyOf(r), r]));
    const composition: FhirResource = {
      resourceType: 'Composition', id: request.id, status: 'final',
      type: { coding: [{ system: LOINC, code: '60591-5', display: 'Patient summary Document' }] },
      subject: { reference: `Patient/${id}` }, date: now.toISOString(), author: [{ reference: `Device/${SERVICE.id}` }], title: 'Patient Summary',
      section: contents.map(({ section, content }) => compositionSection(section, content, (ref) => byKey.get(ref))).filter((s) => s !== undefined),
    };
    // The access log names what the document holds: the reads of its records, and of a section saying "none"; not
    // a section left out or withheld (hostile review helper-100, F2: a lab read whose section was left out was named).
    const says = contents.flatMap(({ section, content }) => (content.entries.length === 0 && section.required && !content.withheld ? this.readsOf(section.type) : []));
    request.audit.shownReads = [...held.filter((r) => !isReferenced(r)).map((r) => readOfRecord(found.readOf, r)), ...says].filter((read) => read !== undefined);
    noteWithheld(request, reply, found.withheld);
    return documentBundle(this.api.publicBaseUrl, { id: request.id, timestamp: now.toISOString(), resources: [composition, ...held], subsetted: found.withheld > 0 });
  }
}
