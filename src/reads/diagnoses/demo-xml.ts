import { dayAt, dayOf, plusMinutes, type DemoClock } from '../../dev/demo-data/clock.js';
import { bool, EHR_ID_ROOT, extractPatient, id, RC_ROOT, simpleUnit, tv, XSI } from '../../dev/demo-data/ix.js';
import { ehrId } from '../../dev/demo-data/ids.js';
import { DIAGNOSES, type ActionSpec, type DiagnosisNoteSpec, type DiagnosisSpec } from './demo-data.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { accessZoneOf, EHR_SYSTEM_ID, HEAD_UNIT, HSA_ROOT, LOCAL_UNIT_ROOT, POSITION_ROOT, STAFF, UNITS } from '../../dev/demo-data/units.js';
import { cdataIfMarkup, el, tag, xmlDocument, type XmlElement } from '../../dev/demo-data/xml.js';

/** DiagnosisEHRExtracts (docs/upstream-ehr.md#3-documents, a mirror of the vendor's diagnosis v2). */

const ICD_10_SE = '1.2.752.116.1.1.1';
const KVA = '1.2.752.116.1.3.2.1.4';

/** When an action was done: `after` minutes after the diagnosis was set; absent without it. */
export const actionTime = (spec: ActionSpec, at: string, zone: string): string | undefined =>
  (spec.after === undefined ? undefined : plusMinutes(at, spec.after, zone));

function action(spec: ActionSpec, key: string, at: string, zone: string): XmlElement {
  const done = actionTime(spec, at, zone);
  return el('action',
    id('rcId', `TOLV:RcId:Action:${key}`, RC_ROOT), el('actionTerminology', KVA),
    el('actionCode', spec.code), el('actionDescription', cdataIfMarkup(spec.text)),
    done !== undefined && tv('actionSurgeryDateTime', done));
}

function diagnosis(spec: DiagnosisSpec, key: string, at: string, zone: string): XmlElement {
  // Code type and chronic as attributes on a nested one: the mirror rule lets a leaf member be either.
  return tag('diagnosis', key.includes('.') ? { diagnosisCodeType: 'ICD-10-SE', diagnosisChronic: spec.chronic === undefined ? undefined : bool(spec.chronic) } : {},
    id('rcId', `TOLV:RcId:Diagnosis:${key}`, RC_ROOT),
    !key.includes('.') && el('diagnosisCodeType', 'ICD-10-SE'),
    el('diagnosisTerminology', ICD_10_SE), el('diagnosisCode', spec.code), el('diagnosisDescription', spec.text),
    el('diagnosisType', spec.type),
    !key.includes('.') && spec.chronic !== undefined && el('diagnosisChronic', bool(spec.chronic)),
    (spec.nested ?? []).map((inner, i) => diagnosis(inner, `${key}.${i + 1}`, at, zone)),
    (spec.actions ?? []).map((a, i) => action(a, `${key}-${i + 1}`, at, zone)));
}

/** When a diagnosis note was written, its key, and when it was signed (unsigned: absent): both forms read this. */
export function diagnosisNoteFacts(spec: DiagnosisNoteSpec, person: DemoPerson, clock: DemoClock) {
  const day = dayOf(clock, spec.day);
  const at = dayAt(clock, day, spec.time);
  return {
    at, key: String(person.slotBase + spec.n),
    version: plusMinutes(at, 10, clock.zone),
    signed: spec.signAfter === undefined ? undefined : plusMinutes(at, spec.signAfter, clock.zone),
  };
}

function note(spec: DiagnosisNoteSpec, person: DemoPerson, clock: DemoClock): XmlElement {
  const { at, key, version, signed } = diagnosisNoteFacts(spec, person, clock);
  const staff = STAFF[spec.staff];
  const unit = UNITS[spec.unit];
  return el('diagnosisEHRExtract',
    // Each note its own record id: docs/upstream-fhir.md#312-diagnoses-operation-12 makes it the resource's id (its rcIds hold colons).
    id('ehrId', ehrId(`${person.id}:dx:${key}`), EHR_ID_ROOT),
    id('ehrSystem', EHR_SYSTEM_ID, HSA_ROOT),
    tv('timeCreated', at),
    el('diagnosisMetaData',
      id('NoteId', `TOLV:RcId:JournalNote:${key}`, RC_ROOT),
      tv('DiagnosisVersionDateTime', version),
      el('DiagnosisTemplateName', spec.template),
      el('DiagnosisTemplateSecrecyLevels', el('secrecyLevel', 'Normal')),
      el('DiagnosisTypeOfNote', 'Diagnos'),
      tv('DiagnosisNoteDate', at.slice(0, 8)),
      signed !== undefined && tv('DiagnosisSignDateTime', signed),
      el('DiagnosisSecrecyLevels', el('secrecyLevel', spec.secrecy ?? 'Normal')),
      el('DiagnosisActive', bool(spec.active ?? true))),
    extractPatient('patient', person),
    el('units', el('unit',
      id('unitID', unit.hsaId, HSA_ROOT), id('unitLocalID', unit.localId, LOCAL_UNIT_ROOT),
      el('unitInternalID', unit.internalId), el('unitName', unit.name),
      el('accessZones', id('accessZoneID', accessZoneOf(spec.unit, '00000031'), POSITION_ROOT)))),
    simpleUnit('careUnit', spec.unit),
    simpleUnit('accessZoneUnit', spec.unit),
    el('headCareProviderUnit', id('unitID', HEAD_UNIT.hsaId, HSA_ROOT)),
    el('careProviders', el('careProvider',
      el('careProviderType', 'Diagnosställare'), id('careProviderID', staff.hsaId, HSA_ROOT),
      el('careProviderName', cdataIfMarkup(staff.name)),
      el('careProviderPosition', id('careProviderPositionID', staff.positionId, POSITION_ROOT),
        el('careProviderPositionName', staff.positionName)),
      simpleUnit('careProviderUnit', staff.unit))),
    el('diagnoses',
      spec.diagnoses.map((d, i) => diagnosis(d, `${key}-${i + 1}`, at, clock.zone)),
      (spec.actions ?? []).map((a, i) => action(a, `${key}-a${i + 1}`, at, clock.zone))));
}

export function diagnosesDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const root = tag('dx:DiagnosisEHRExtracts', { 'xmlns:dx': ns, xmlns: ns, 'xmlns:xsi': XSI },
    [...(DIAGNOSES[person.id] ?? [])].reverse().map((spec) => note(spec, person, clock)));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/diagnoses (synthetic demo data, generated `
    + `for ${clock.today}). A mirror of the vendor's diagnosis v2. Traps where present: a prefixed root, notes out of `
    + 'time order, a diagnosis set in the hour a daylight-saving change repeats or skips, diagnoses nested to depth '
    + 'three, actions in a diagnosis and beside the diagnoses, members as attributes on nested diagnoses, an unsigned '
    + 'note, an 8-digit DiagnosisNoteDate, markup-like text in CDATA.');
}
