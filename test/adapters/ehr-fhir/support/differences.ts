/**
 * What the FHIR description changes in an answer (docs/upstream-fhir.md): the rules the members a read
 * over FHIR leaves absent or values differently are written with (each read lists its own, by these, as
 * the `differences` of its folder's oracles.ts), and the few rules that change a whole answer
 * (`alignments`), with the comparison that holds two answers to them. Shared by
 * the equivalence test (the embedded XML EHR against the development FHIR server) and the chain test
 * (test/e2e/fhir-chain.e2e.test.ts: the embedded XML EHR against a `fhir-r4` adapter reading this
 * service's own FHIR API), since in both the legacy records are read over FHIR.
 */
import type { ReadName } from '../../../../src/domain/operations/table.js';

/** The relationship texts of the demo registry's tagged RelatedPersons (src/dev/demo-data/fhir/registry.ts). */
const REGISTRY_TEXTS: ReadonlySet<string> = new Set(['Vårdnadshavare', 'Ombud', 'Make/maka/partner']);

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * A member path inside one item of an answer, array positions written `*`; a difference covers the
 * member and everything under it, and the narrowest one covering a member applies. `absent`: the FHIR
 * description leaves the member out, so the answer over FHIR must not have it; `differs`: a rule of the
 * description values it (over FHIR only, where the legacy document leaves it out: `onlyOverFhir`).
 */
export interface Difference {
  member: string;
  kind: 'absent' | 'differs';
  why: string;
  /** Where the rule can be checked value by value: whether the legacy value and the one over FHIR are as it makes them. */
  holds?: (xml: Json | undefined, fhir: Json | undefined) => boolean;
}

/** The only pairs of values (legacy, FHIR) the rule gives. */
export const pairs = (...allowed: [Json | undefined, Json | undefined][]) => (xml: Json | undefined, fhir: Json | undefined): boolean =>
  allowed.some(([x, f]) => x === xml && f === fhir);
/** The legacy value is an object whose `key` is `value` (undefined: it has none). */
export const legacyWith = (key: string, value: Json | undefined) => (xml: Json | undefined): boolean =>
  typeof xml === 'object' && xml !== null && !Array.isArray(xml) && xml[key] === value;
/** FHIR answers a member the legacy document leaves out. */
export const onlyOverFhir = (xml: Json | undefined): boolean => xml === undefined;

/** The members of a patient layout, under `extract`, that its section leaves absent or values by a rule. */
export function patientDifferences(extract: string, section: string, m: {
  absent: string[]; ehrId: string; internalId: string; created: string; phoneType: string; emailType: string; address: string;
}): Difference[] {
  const rule = (member: string, kind: Difference['kind'], why: string): Difference => ({ member: `${extract}${member}`, kind, why });
  return [
    ...m.absent.map((member) => rule(member, 'absent', `${section}: absent`)),
    rule(m.ehrId, 'differs', '#rules-the-mapping-tables-use: Own, the record id made from the logical id'),
    rule(m.internalId, 'differs', `${section}: Patient.id`),
    // The legacy document was extracted by last night's batch; FHIR's is the version's own time.
    rule(m.created, 'differs', `${section}: TS(meta.lastUpdated)`),
    rule(m.phoneType, 'differs', '#rules-the-mapping-tables-use: Telecom, the type is `use`'),
    rule(m.emailType, 'differs', '#rules-the-mapping-tables-use: Telecom, the type is `use`'),
    rule(`${m.address}Type`, 'differs', '#rules-the-mapping-tables-use: Address, the HL7 Sweden type\'s display, else `use`'),
  ];
}

/** Differences of members under `prefix`, the path of one extract. */
export const under = (prefix: string) => (member: string, kind: Difference['kind'], why: string, holds?: Difference['holds']): Difference =>
  ({ member: `${prefix}${member}`, kind, why, ...(holds === undefined ? {} : { holds }) });

export const RULES = '#rules-the-mapping-tables-use';
export const OWN = `${RULES}: Own, the record id made from the logical id`;

/** What Unit(org) makes of each member a layout's unit may have. */
const UNIT_RULES = {
  localId: ['absent', `${RULES}: a unit has no local id`],
  internalId: ['differs', `${RULES}: a unit's internal id is the Organization's logical id`],
  groups: ['absent', `${RULES}: a unit's secrecy groups and access zones are []`],
  zones: ['absent', `${RULES}: a unit's secrecy groups and access zones are []`],
  phoneType: ['differs', `${RULES}: Telecom, the type is \`use\``],
  phoneComment: ['absent', `${RULES}: Telecom, comments have no FHIR home`],
  emailType: ['differs', `${RULES}: Telecom, the type is \`use\``],
  emailComment: ['absent', `${RULES}: Telecom, comments have no FHIR home`],
  addressType: ['absent', `${RULES}: no address type of a unit`],
  addressComment: ['absent', `${RULES}: an address's comment has no FHIR home`],
  country: ['differs', `${RULES}: Address, the country as FHIR writes it`],
} as const satisfies Record<string, readonly [Difference['kind'], string]>;

/** A layout's unit as Unit(org) answers it: each member's path under the extract. */
export const unitRules = (rule: ReturnType<typeof under>, members: Partial<Record<keyof typeof UNIT_RULES, string>>): Difference[] =>
  (Object.entries(members) as [keyof typeof UNIT_RULES, string][]).map(([what, member]) =>
    rule(member, UNIT_RULES[what][0], UNIT_RULES[what][1], what === 'country' ? pairs(['Sverige', 'SE']) : undefined));

/** A unit of the v2 layouts (`units.unit[]` of care contacts and lab results). */
export const v2Unit = (rule: ReturnType<typeof under>, u: string): Difference[] => unitRules(rule, {
  localId: `${u}unitLocalID`, internalId: `${u}unitInternalID`, groups: `${u}unitSecrecyGroups/group/*`, zones: `${u}accessZones/accessZoneID/*`,
  phoneType: `${u}phoneNumbers/phone/*/phoneType`, emailType: `${u}emailAddresses/Email/*/EmailType`,
  addressType: `${u}unitAddresses/unitAddress/*/unitAddressType`, country: `${u}unitAddresses/unitAddress/*/unitAddressCountry`,
});

/** A care provider of the v2 layouts (`careProviders.careProvider[]` of care contacts and diagnoses) as Staff answers it. */
export const v2CareProvider = (rule: ReturnType<typeof under>, provider: string): Difference[] => [
  rule(`${provider}careProviderInternalID`, 'differs', `${RULES}: a member of staff's internal id is the Practitioner's logical id`),
  rule(`${provider}careProviderPosition/careProviderPositionID`, 'absent', `${RULES}: Staff has a position name and no position id`),
  rule(`${provider}careProviderUnit/unitLocalID`, 'absent', `${RULES}: a unit named by its HSA id only`),
];

type NoteRecord = { Value: { $self?: string }[]; Record?: NoteRecord };
type NoteExtract = { Note: { NoteActive: boolean; Records: { Record: NoteRecord[] } }; CareProviders: { CareProvider: { CareProviderID?: { extension: string } }[] } };
const withText = (r: NoteRecord): NoteRecord =>
  ({ ...r, Value: r.Value.filter((v) => v.$self !== undefined), ...(r.Record === undefined ? {} : { Record: withText(r.Record) }) });

type Diagnosis = { diagnosis: Diagnosis[]; action: unknown[] };
type DiagnosisExtract = { diagnoses?: { diagnosis: Diagnosis[]; action: unknown[] } };
/** A diagnosis and each one under it, alone, in document order. */
const eachDiagnosis = (d: Diagnosis): Diagnosis[] => [{ ...d, diagnosis: [] }, ...d.diagnosis.flatMap(eachDiagnosis)];

/**
 * What the FHIR description changes in a whole answer rather than in a member, for answers read at
 * `now` (a video meeting held before it is fulfilled in FHIR).
 */
export const alignments = (now: number): { [R in ReadName]?: (items: unknown[]) => unknown[] } => ({
  // One extract, the FHIR server being one source (#35-patient-information-v2-layout-operation-5), where the
  // embedded EHR adds one per further source. Relatives are every RelatedPerson about the patient, so the
  // delegation registry's tagged ones are relatives too over FHIR (#4-the-delegation-registry): left out here,
  // by their relationship texts; the rest in name order, as FHIR gives no order.
  getPatientV2: (items) => (items as { patientEHRExtract: { patient: { patientRelatives?: { patientRelative: { patientRelativeType?: string; patientRelativeName?: string }[] } } }[] }[])
    .map((item) => ({ ...item, patientEHRExtract: item.patientEHRExtract.slice(0, 1).map((e) => ({
      ...e, patient: { ...e.patient, ...(e.patient.patientRelatives === undefined ? {} : {
        patientRelatives: { patientRelative: e.patient.patientRelatives.patientRelative
          .filter((r) => !REGISTRY_TEXTS.has(r.patientRelativeType ?? ''))
          .sort((a, b) => (a.patientRelativeName ?? '').localeCompare(b.patientRelativeName ?? '')) },
      }) },
    })) })),
  // The legacy document lists an older version of some patients after the current one; FHIR reads the
  // current one (#34-patient-information-older-layout-operation-4). The current version's document also
  // holds a summer address abroad (a trap of the legacy XML, a numeric character reference in its comment)
  // that the v2 document of the same person does not: one FHIR Patient answers both layouts, as v2 has it.
  getPatient: (items) => (items as { PatientEHRExtract: { Patient: { PatientAddresses?: { PatientAddress: { PatientAddressType?: string }[] } } }[] }[])
    .map((item) => ({ ...item, PatientEHRExtract: item.PatientEHRExtract.slice(0, 1).map((e) => ({
      ...e, Patient: { ...e.Patient, ...(e.Patient.PatientAddresses === undefined ? {} : {
        PatientAddresses: { PatientAddress: e.Patient.PatientAddresses.PatientAddress.filter((a) => a.PatientAddressType !== 'TILLFALLIG' || !JSON.stringify(a).includes('"NO"')) },
      }) },
    })) })),
  // The FHIR server is one booking source, so one result (#33-booked-appointments-operation-3), where the
  // embedded EHR answers one per source: the bookings of all sources in one result, in time order.
  getAppointments: (items) => {
    type Result = { Booking?: { StartTime: string }[]; RegisteredBooking?: { StartTime: string }[] };
    const results = items as Result[];
    const all = (key: 'Booking' | 'RegisteredBooking') => results.flatMap((r) => r[key] ?? [])
      .sort((x, y) => x.StartTime.localeCompare(y.StartTime) || JSON.stringify(x).localeCompare(JSON.stringify(y)));
    return results.length === 0 ? [] : [{ ...results[0], Booking: all('Booking'), RegisteredBooking: all('RegisteredBooking') }];
  },
  // A meeting already held is `fulfilled` in FHIR, which the video search does not ask for
  // (#38-video-meetings-operation-8); the legacy document keeps it until it is gone.
  getVideoMeetings: (items) => (items as { endDateTimeInUnix: number }[]).filter((m) => m.endDateTimeInUnix > now),
  // A legacy note may hold several diagnoses, one nested under another (an external cause under its injury), and
  // actions beside them; FHIR has one Condition per extract, of its first diagnosis, and every action of the note a
  // Procedure for it (#312-diagnoses-operation-12: `diagnosis[0]`, nested diagnoses absent): so here.
  getDiagnoses: (items) => (items as { diagnosisEHRExtract: DiagnosisExtract[] }[]).map((item) => ({
    ...item,
    diagnosisEHRExtract: item.diagnosisEHRExtract.map((e) => {
      const { diagnoses } = e;
      if (diagnoses === undefined) return e;
      const [first, ...further] = diagnoses.diagnosis.flatMap(eachDiagnosis);
      if (first === undefined) return e;
      return { ...e, diagnoses: { diagnosis: [{ ...first, action: [...first.action, ...further.flatMap((d) => d.action), ...diagnoses.action] }], action: [] } };
    }),
  })),
  // A note made inactive is entered-in-error in FHIR, never answered (#status-filters). A value without text (the
  // legacy openEHR data, typed Other) has no FHIR home (#310-journal-notes-operation-10). Who wrote and signed a note
  // is its author and its attester over FHIR: listed once here, as the legacy document lists each.
  getJournalNotes: (items) => (items as { JournalNoteEHRExtract: NoteExtract[] }[]).map((item) => ({
    ...item,
    JournalNoteEHRExtract: item.JournalNoteEHRExtract.filter((e) => e.Note.NoteActive).map((e) => ({
      ...e,
      Note: { ...e.Note, Records: { Record: e.Note.Records.Record.map(withText) } },
      CareProviders: { CareProvider: e.CareProviders.CareProvider.filter((p, i, all) =>
        all.findIndex((q) => q.CareProviderID?.extension === p.CareProviderID?.extension) === i) },
    })),
  })),
});

/** Every leaf where the two differ: [path with positions, path with `*`, the XML value, the FHIR value]. */
export function differences(xml: Json | undefined, fhir: Json | undefined, path: string, out: [string, string, Json | undefined, Json | undefined][]): void {
  if (JSON.stringify(xml) === JSON.stringify(fhir)) return;
  if (xml !== null && fhir !== null && typeof xml === 'object' && typeof fhir === 'object') {
    const a = xml as Record<string, Json>;
    const b = fhir as Record<string, Json>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) differences(a[key], b[key], `${path}/${key}`, out);
    return;
  }
  out.push([path, path.replace(/\/\d+(?=\/|$)/g, '/*'), xml, fhir]);
}

export const covers = (d: Difference, member: string): boolean => member === d.member || member.startsWith(`${d.member}/`);
/** The difference that covers `member` most narrowly: a rule for a whole item leaves its members' own rules standing. */
export const narrowest = (allowed: readonly Difference[], member: string): Difference | undefined =>
  allowed.filter((d) => covers(d, member)).sort((a, b) => b.member.length - a.member.length)[0];

/**
 * The differences of two answers that no rule of `allowed` explains, as `path: legacy | over FHIR`;
 * each rule that explained one is added to `used`. A member covered by an `absent` rule must be
 * absent over FHIR (or an empty list); one covered by a rule that `holds` must hold to it.
 */
export function unexplained(legacy: Json, overFhir: Json, allowed: readonly Difference[], used: Set<Difference>): string[] {
  const found: [string, string, Json | undefined, Json | undefined][] = [];
  differences(legacy, overFhir, '', found);
  return found.filter(([, starred, legacyValue, fhirValue]) => {
    // The answer's own item position is not part of a member's path.
    const member = starred.replace(/^\/\*\//, '');
    const d = narrowest(allowed, member);
    if (d === undefined) return true;
    used.add(d);
    if (d.holds !== undefined && !d.holds(legacyValue, fhirValue)) return true;
    return d.kind === 'absent' && fhirValue !== undefined && !(Array.isArray(fhirValue) && fhirValue.length === 0);
  }).map(([p, , x, f]) => `${p}: ${JSON.stringify(x)} | ${JSON.stringify(f)}`);
}
