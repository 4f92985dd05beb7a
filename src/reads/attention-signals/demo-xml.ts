import { addDays, dayAt, dayOf, plusMinutes, type DemoClock } from '../../dev/demo-data/clock.js';
import { bool, EHR_ID_ROOT, extractPatient, id, RC_ROOT, simpleUnit, tv, XSI } from '../../dev/demo-data/ix.js';
import { ehrId } from '../../dev/demo-data/ids.js';
import { SIGNALS, type SignalSpec } from './demo-data.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { accessZoneOf, EHR_SYSTEM_ID, HEAD_UNIT, HSA_ROOT, LOCAL_UNIT_ROOT, POSITION_ROOT, STAFF, UNITS, type UnitKey } from '../../dev/demo-data/units.js';
import { cdataIfMarkup, el, leaf, tag, xmlDocument, type XmlChild, type XmlElement } from '../../dev/demo-data/xml.js';

/** AttentionSignalEHRExtracts (docs/upstream-ehr.md#3-documents, a mirror of the vendor's attention signals): warnings every caregiver must see. */

/** The ATC code system as the legacy signals name it (test/fixtures/upstream/attentionsignals.xml). */
export const ATC_ROOT = '1.2.752.129.2.2.3.1';

const reassessment = (spec: SignalSpec, registeredDay: string): XmlChild[] => [
  el('ReasessmentRequired', bool(spec.reassessDays !== undefined)),
  spec.reassessDays !== undefined && tv('ReasessmentDateTime', addDays(registeredDay, spec.reassessDays)),
];

function detail(spec: SignalSpec, registeredDay: string): XmlElement {
  const heading = el('Heading', spec.heading);
  const comment = leaf('Comment', spec.comment && cdataIfMarkup(spec.comment));
  switch (spec.kind) {
    case 'Hypersensitivity':
      // Severity and Certitude as attributes: the mirror rule lets a leaf member be either.
      return tag('HypersensitivityType', { Severity: spec.severity, Certitude: spec.certitude ?? 'Bekräftad' },
        heading, comment, el('Reaction', spec.reaction ?? ''), ...reassessment(spec, registeredDay),
        (spec.reactionTypes ?? []).map((r) => el('ReactionTypes', r)),
        spec.atc && el('SignalATCCodes', spec.atc.map(([code, name]) => tag('signalATCCode',
          { Code: code, CodeSystem: ATC_ROOT, CodeSystemName: 'ATC' }, tag('DisplayName', { value: name })))),
        (spec.agents ?? []).map((a) => el('Agent', a)));
    case 'ContagiousDisease':
      return el('ContagiousDiseaseType', heading, comment, ...reassessment(spec, registeredDay));
    case 'TreatmentAndCondition':
      return el('TreatmentAndConditionType', heading, comment, ...reassessment(spec, registeredDay),
        leaf('TreatmentCode', spec.code), spec.code !== undefined && tv('TreatmentDateTime', registeredDay),
        leaf('TreatmentDescription', spec.description), leaf('DiagnosisCode', spec.diagnosis?.[0]),
        leaf('DiagnosisDescription', spec.diagnosis?.[1]));
    case 'Unstructured':
      return el('UnstructuredType', heading, comment, el('Type', 'WARNING'), ...reassessment(spec, registeredDay), el('Valid', 'true'));
  }
}

function unitDetails(key: UnitKey): XmlElement {
  const u = UNITS[key];
  return el('Unit',
    id('UnitID', u.hsaId, HSA_ROOT), id('UnitLocalID', u.localId, LOCAL_UNIT_ROOT), el('unitInternalID', u.internalId),
    el('UnitName', u.name), id('HeadCareproviderUnitID', HEAD_UNIT.hsaId, HSA_ROOT),
    el('AccessZones', id('AccessZoneID', accessZoneOf(key, '00000031'), POSITION_ROOT)),
    el('PhoneNumbers', el('Phone', el('PhoneType', 'VAXEL'), el('PhoneNumber', u.phone))));
}

/** When a signal was registered and, if it was made inactive, when: both forms of the demo data read this. */
export function signalTiming(spec: SignalSpec, clock: DemoClock): { day: number; registered: string; deleted?: string } {
  const day = dayOf(clock, spec.day);
  const registered = dayAt(clock, day, spec.time);
  return spec.deleted === undefined ? { day, registered } : { day, registered, deleted: dayAt(clock, day + spec.deleted[0], '0830') };
}

function signal(spec: SignalSpec, person: DemoPerson, clock: DemoClock): XmlElement {
  const { day, registered, deleted } = signalTiming(spec, clock);
  const registeredDay = addDays(clock.today, day);
  const staff = STAFF[spec.staff];
  const unit = spec.unit ?? staff.unit;
  return el('AttentionSignalEHRExtract',
    // Each signal its own record id: docs/upstream-fhir.md#37-attention-signals-operation-7 makes it the resource's id (its RcId holds colons).
    id('ehr_id', ehrId(`${person.id}:signal:${spec.id}`), EHR_ID_ROOT),
    id('ehr_system', EHR_SYSTEM_ID, HSA_ROOT),
    tv('time_created', registered),
    el('AttentionSignal',
      id('RcId', `TOLV:RcId:AttentionSignal:${spec.id}`, RC_ROOT),
      // Made inactive is a version of its own, as the legacy example (test/fixtures/upstream/attentionsignals.xml) dates it.
      tv('SignalVersionDateTime', deleted ?? registered),
      tv('SignalSignDateTime', plusMinutes(registered, 20, clock.zone)),
      el('SignalActive', bool(spec.deleted === undefined)),
      spec.deleted !== undefined && deleted !== undefined && [tv('SignalDeletionDate', deleted),
        el('SignalDeletionComment', spec.deleted[1])],
      el('SignalWarningSubType', spec.subType),
      el('SignalDataType', spec.kind),
      detail(spec, registeredDay)),
    extractPatient('Patient', person),
    simpleUnit('CareUnit', unit),
    el('HeadCareproviderUnit', id('unitID', HEAD_UNIT.hsaId, HSA_ROOT)),
    el('Units', unitDetails(unit)),
    el('CareProviders', el('CareProvider',
      el('CareProviderType', 'SIGNERARE'), id('CareProviderID', staff.hsaId, HSA_ROOT),
      el('CareProviderInternalID', staff.internalId), el('CareProviderName', cdataIfMarkup(staff.name)),
      el('ProviderPosition', id('careProviderPositionID', staff.positionId, POSITION_ROOT),
        el('careProviderPositionName', staff.positionName)),
      simpleUnit('CareProviderUnit', staff.unit))));
}

export function attentionSignalsDocument(person: DemoPerson, clock: DemoClock, ns: string): string {
  const root = tag('as:AttentionSignalEHRExtracts', { 'xmlns:as': ns, xmlns: ns, 'xmlns:xsi': XSI, version: '2.1' },
    (SIGNALS[person.id] ?? []).map((spec) => signal(spec, person, clock)));
  return xmlDocument(root, `GET /ehr/v1/patients/${person.id}/attentionsignals (synthetic demo data, generated `
    + `for ${clock.today}). A mirror of the vendor's attention signals. Traps where present: a prefixed root, `
    + 'signals out of time order, a registration in the hour a daylight-saving change repeats or skips, '
    + 'Severity and Certitude as attributes, repeated Agent and ReactionTypes, 8-digit dates, an inactive '
    + 'signal, multi-line text, CDATA, escaped ampersands.');
}
