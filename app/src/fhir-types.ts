/** The members of FHIR R4 resources this page reads; everything else is ignored. */
export interface Coding { system?: string; code?: string; display?: string }
export interface CodeableConcept { coding?: Coding[]; text?: string }
export interface Reference { reference?: string; display?: string }
/** `valueText`: the decimal's digits as the API wrote them (`4.0`, `5.10`), kept by the parse (decimals.ts). */
export interface Quantity {
  value?: number; valueText?: string; unit?: string; comparator?: string;
  /** FHIR's extensions on the value: a value that is no decimal (`<5`) comes as its `rendered-value` alone. */
  _value?: { extension?: { url?: string; valueString?: string }[] };
}
export interface HumanName { text?: string; family?: string; given?: string[]; use?: string }
export interface Narrative { status?: string; div?: string }
export interface Annotation { text?: string; time?: string }
export interface ReferenceRange { low?: Quantity; high?: Quantity; text?: string }
export interface Extension { url?: string; valueUrl?: string; valueUri?: string; valueString?: string; valueCode?: string; extension?: Extension[] }

export interface Resource { resourceType: string; id?: string; [member: string]: unknown }

export interface Patient extends Resource { resourceType: 'Patient'; name?: HumanName[]; birthDate?: string }
export interface Practitioner extends Resource { name?: HumanName[] }
export interface PractitionerRole extends Resource { practitioner?: Reference; code?: CodeableConcept[] }
export interface Location extends Resource { name?: string; address?: { line?: string[]; city?: string } }
export interface Medication extends Resource { code?: CodeableConcept; form?: CodeableConcept }

export interface Appointment extends Resource {
  status?: string; start?: string; end?: string; description?: string;
  serviceType?: CodeableConcept[]; appointmentType?: CodeableConcept;
  participant?: { actor?: Reference }[]; extension?: Extension[];
}

export interface Observation extends Resource {
  status?: string; code?: CodeableConcept; category?: CodeableConcept[];
  effectiveDateTime?: string; issued?: string;
  valueQuantity?: Quantity; valueString?: string; valueCodeableConcept?: CodeableConcept;
  referenceRange?: ReferenceRange[]; interpretation?: CodeableConcept[];
}

export interface CompositionSection {
  title?: string; code?: CodeableConcept; text?: Narrative; entry?: Reference[]; section?: CompositionSection[]; emptyReason?: CodeableConcept;
}

export interface Composition extends Resource {
  status?: string; type?: CodeableConcept; title?: string; date?: string;
  author?: Reference[]; section?: CompositionSection[];
  /** A journal note's values (Observations) are held in it, named by `#id` (docs/upstream-fhir.md#310-journal-notes-operation-10). */
  contained?: Resource[];
}

export interface MedicationRequest extends Resource {
  status?: string; authoredOn?: string;
  medicationCodeableConcept?: CodeableConcept; medicationReference?: Reference;
  dosageInstruction?: { text?: string }[]; reasonCode?: CodeableConcept[]; courseOfTherapyType?: CodeableConcept;
}

export interface Condition extends Resource {
  code?: CodeableConcept; category?: CodeableConcept[]; recordedDate?: string; onsetDateTime?: string;
  clinicalStatus?: CodeableConcept; verificationStatus?: CodeableConcept;
}

export interface AllergyIntolerance extends Resource { code?: CodeableConcept; clinicalStatus?: CodeableConcept }

export interface AuditEvent extends Resource {
  recorded?: string; outcome?: string; outcomeDesc?: string; _outcomeDesc?: { extension?: Extension[] };
  subtype?: Coding[];
  agent?: { type?: CodeableConcept; who?: { display?: string; _display?: { extension?: Extension[] }; identifier?: { value?: string } }; requestor?: boolean }[];
}

export interface Bundle extends Resource {
  type?: string; meta?: { tag?: Coding[] }; entry?: { resource?: Resource }[]; link?: { relation?: string; url?: string }[];
}

/** Resources by `Type/id`, for following the references of the included ones. */
export class ById {
  private readonly map = new Map<string, Resource>();
  constructor(resources: readonly Resource[]) {
    for (const r of resources) if (r.id !== undefined) this.map.set(`${r.resourceType}/${r.id}`, r);
  }
  /** The resource `ref` names: `#id` one contained in `container` (a local reference names nothing outside it), else an included one. */
  get<T extends Resource>(ref: Reference | undefined, container?: { contained?: readonly Resource[] }): T | undefined {
    const to = ref?.reference;
    if (to === undefined) return undefined;
    if (to.startsWith('#')) return container?.contained?.find((r) => r.id === to.slice(1)) as T | undefined;
    return this.map.get(to) as T | undefined;
  }
}
