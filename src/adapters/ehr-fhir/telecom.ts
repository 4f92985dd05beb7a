/** Telecom (docs/upstream-fhir.md#rules-the-mapping-tables-use): phones and e-mail still in use. */
import type { ContactPoint } from './schemas/datatypes.js';

export interface Telecom {
  value?: string;
  use?: string;
}

const ofSystem = (telecom: readonly ContactPoint[] | undefined, system: string): Telecom[] =>
  (telecom ?? []).filter((t) => t.system === system && t.use !== 'old').map((t) => ({ value: t.value, use: t.use }));

export const phones = (telecom: readonly ContactPoint[] | undefined): Telecom[] => ofSystem(telecom, 'phone');
export const emails = (telecom: readonly ContactPoint[] | undefined): Telecom[] => ofSystem(telecom, 'email');
