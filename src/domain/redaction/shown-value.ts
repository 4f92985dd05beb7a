/**
 * A value a person sent, as a refusal may show it back: quoted and cut to 64 characters, or, where it
 * holds an identity number (in any form names-a-person.ts reads), not at all: no error body repeats a
 * person's number, whichever member it was typed into.
 */
import { namesAPerson } from './names-a-person.js';

export const shownValue = (value: string): string => (namesAPerson(value) ? 'an identity number' : JSON.stringify(value.slice(0, 64)));
