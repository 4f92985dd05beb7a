/** Telecom (docs/upstream-fhir.md#rules-the-mapping-tables-use): phones and e-mail still in use. */
import { definedOnly } from '../../domain/records/defined.js';
import type { ContactPoint } from '../../domain/fhir/resources/datatypes.js';

export interface Telecom {
  value?: string;
  use?: string;
}

const ofSystem = (telecom: readonly ContactPoint[] | undefined, system: string): Telecom[] =>
  (telecom ?? []).filter((t) => t.system === system && t.use !== 'old').map((t) => ({ value: t.value, use: t.use }));

export const phones = (telecom: readonly ContactPoint[] | undefined): Telecom[] => ofSystem(telecom, 'phone');
export const emails = (telecom: readonly ContactPoint[] | undefined): Telecom[] => ofSystem(telecom, 'email');

/** Phones as the PascalCase layouts list them: `{PhoneType, PhoneNumber}`. */
export const phoneItems = (list: readonly Telecom[]) => list.map((p) => definedOnly({ PhoneType: p.use, PhoneNumber: p.value }));

/** E-mail addresses as every layout lists them: `{EmailType, EmailAddress}`. */
export const emailItems = (list: readonly Telecom[]) => list.map((e) => definedOnly({ EmailType: e.use, EmailAddress: e.value }));
