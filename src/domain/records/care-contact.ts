/** CareContact (v2, camelCase; CONTRACT §4). */
import { Type, type Static } from 'typebox';
import { OptStr } from './common.js';

export const CONTACT_TYPES = ['visit', 'phone', 'video', 'admission', 'other'] as const;
export const ContactTypeSchema = Type.Enum(CONTACT_TYPES);
export type ContactType = Static<typeof ContactTypeSchema>;

export const CareContactSchema = Type.Object({
  contactId: Type.String(),
  contactType: ContactTypeSchema,
  status: Type.String(),
  startDateTimeInUnix: Type.Integer(),
  endDateTimeInUnix: Type.Optional(Type.Integer()),
  performingUnitName: Type.String(),
  careGiverName: Type.String(),
  reason: OptStr,
});

export type CareContact = Static<typeof CareContactSchema>;
