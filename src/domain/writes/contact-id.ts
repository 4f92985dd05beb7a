/**
 * A booking's ContactId as the API takes it and the audit keeps it: 1 to 64 letters, digits, dots, hyphens
 * or underscores (the EHR's ids, `4711`, `00261130199`). The request schema, the EHR's paths and the audit
 * record's field and column check the same text.
 */
export const CONTACT_ID_PATTERN = '^[A-Za-z0-9._-]{1,64}$';

const CONTACT_ID = new RegExp(CONTACT_ID_PATTERN);

export const isContactId = (text: unknown): text is string => typeof text === 'string' && CONTACT_ID.test(text);
