/**
 * The demo's journal notes as FHIR Compositions (docs/upstream-fhir.md#310-journal-notes-operation-10):
 * each Record a section whose narrative is its text values, each numeric value an Observation entry,
 * a nested Record a nested section. A note made inactive was written in error (`entered-in-error`,
 * never answered); an unsigned one is `preliminary`. Openehr archetypes have no FHIR home.
 */
import type { DemoClock } from '../../dev/demo-data/clock.js';
import type { RecordSpec } from './demo-data.js';
import { notesOf, noteTiming } from './demo-xml.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { decimalValue, instant, LOCAL_SYSTEMS, meta, orgId, patientRef, ref, roleId, secrecyLabels, text, type FhirResource } from '../../dev/demo-data/fhir/fhir-base.js';

const escapeXhtml = (value: string): string => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The record's text values as XHTML, a line break as `<br/>`. */
function narrative(record: RecordSpec) {
  const lines = record.values.filter((v) => v.type !== 'Numeric' && v.text !== undefined).map((v) => v.text as string);
  if (lines.length === 0) return undefined;
  return { status: 'generated', div: `<div xmlns="http://www.w3.org/1999/xhtml">${lines.map((l) => escapeXhtml(l).replace(/\n/g, '<br/>')).join('<br/>')}</div>` };
}

interface NoteWriting {
  person: DemoPerson;
  clock: DemoClock;
  noteId: string;
  written: string;
  encounterId: string;
  observations: FhirResource[];
}

function section(record: RecordSpec, w: NoteWriting): Record<string, unknown> {
  const entry = record.values.filter((v) => v.type === 'Numeric' && v.text !== undefined).map((v) => {
    const id = `obs-${w.noteId}-${w.observations.length + 1}`;
    w.observations.push({
      resourceType: 'Observation', id, meta: meta(w.written, w.clock), status: 'final',
      code: text(record.keyword), subject: patientRef(w.person), encounter: ref('Encounter', w.encounterId),
      effectiveDateTime: instant(w.written, w.clock.zone),
      valueQuantity: { ...decimalValue(v.text as string), ...(record.unit === undefined ? {} : { unit: record.unit }) },
      ...(record.range === undefined ? {} : { referenceRange: [{ text: record.range }] }),
    });
    return ref('Observation', id);
  });
  const div = narrative(record);
  return {
    title: record.keyword,
    ...(div === undefined ? {} : { text: div }),
    ...(entry.length === 0 ? {} : { entry }),
    ...(record.nested === undefined ? {} : { section: [section(record.nested, w)] }),
  };
}

export function compositions(person: DemoPerson, clock: DemoClock): FhirResource[] {
  return notesOf(person, clock).flatMap(({ spec, contact }) => {
    const { noteTime, version, signed } = noteTiming(spec, contact, clock);
    const w: NoteWriting = { person, clock, noteId: spec.noteId, written: noteTime, encounterId: contact.contactId, observations: [] };
    const security = secrecyLabels(spec.secrecy);
    const sections = spec.records.map((r) => section(r, w));
    const composition: FhirResource = {
      resourceType: 'Composition', id: `comp-${spec.noteId}`,
      meta: meta(version, clock, security.length === 0 ? {} : { security }),
      identifier: { system: LOCAL_SYSTEMS.note, value: spec.noteId },
      status: !spec.active ? 'entered-in-error' : signed === undefined ? 'preliminary' : 'final',
      type: text(spec.typeOfNote),
      subject: patientRef(person),
      encounter: ref('Encounter', contact.contactId),
      date: instant(noteTime, clock.zone),
      author: spec.staff.map((s) => ref('PractitionerRole', roleId(s))),
      title: spec.template,
      confidentiality: security.length === 0 ? 'N' : 'R',
      ...(signed === undefined || spec.staff[0] === undefined ? {} : {
        attester: [{ mode: 'legal', time: instant(signed, clock.zone), party: ref('PractitionerRole', roleId(spec.staff[0])) }],
      }),
      custodian: ref('Organization', orgId(contact.unit)),
      section: sections,
    };
    return [composition, ...w.observations];
  });
}
