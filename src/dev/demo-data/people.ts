import { kindOfNumber } from '../../domain/identity/person-number-systems.js';
import { birthDateOf } from '../../domain/identity/personal-identity-number.js';

/**
 * The synthetic demo people. Every number is a Swedish test identity number (valid Luhn), chosen so
 * the demo can show each access rule: own data, guardian of a minor, an expired guardianship, power
 * of attorney, partner, a protected identity, and a patient the EHR does not know.
 */

export interface PostalAddress {
  type: string;
  co?: string;
  street: string;
  postcode: string;
  city: string;
  countryCode: string;
  country: string;
  comment?: string;
}

export interface DemoPerson {
  /** 12-digit personal identity number or coordination number (day + 60). */
  readonly id: string;
  readonly givenNames: readonly string[];
  readonly middleName?: string;
  readonly familyName: string;
  readonly sex: 'M' | 'F';
  readonly protectedIdentity: boolean;
  /** What the person demonstrates, in English, for the README and tests. */
  readonly role: string;
  /** First of this person's 100 slot numbers (ContactIds, ActionIds), so ids never collide. */
  readonly slotBase: number;
  readonly addresses: readonly PostalAddress[];
  readonly phones: readonly { type: string; number: string; comment?: string }[];
  readonly email?: string;
}

const SE = { countryCode: 'SE', country: 'Sverige' } as const;

export const DEMO_PEOPLE: readonly DemoPerson[] = Object.freeze([
  {
    id: '191212121212', givenNames: ['Tolvan', 'Nils-Åke'], middleName: 'Öberg', familyName: 'Tolvansson',
    sex: 'M', protectedIdentity: false, slotBase: 100,
    role: 'Adult with rich data in all seven documents and bookings today; Märta Ström holds his power of attorney.',
    addresses: [{
      type: 'FOLKBOKFORING', co: 'c/o Märta Ström', street: 'Tolvansgatan 12 lgh 1203', postcode: '118 20',
      city: 'Stockholm', ...SE, comment: 'Portkod 1212',
    }],
    phones: [{ type: 'MOBIL', number: '0701740605', comment: 'Nås bäst efter 16.00' }, { type: 'HEM', number: '08-46500412' }],
    email: 'tolvan.tolvansson@example.se',
  },
  {
    id: '198112189876', givenNames: ['Märta', 'Elisabet'], familyName: 'Ström',
    sex: 'F', protectedIdentity: false, slotBase: 200,
    role: 'Adult, the demo actor: guardian of Lilla, expired guardian of Anton, power of attorney for Tolvan '
      + 'and (not counting: protected identity) Sara, partner of Gösta; modest own data.',
    addresses: [{ type: 'FOLKBOKFORING', street: 'Strömgatan 8', postcode: '118 21', city: 'Stockholm', ...SE }],
    phones: [{ type: 'MOBIL', number: '0739876512' }],
    email: 'marta.strom@example.se',
  },
  {
    id: '201701012393', givenNames: ['Lilla', 'Maja'], familyName: 'Ström',
    sex: 'F', protectedIdentity: false, slotBase: 300,
    role: 'Minor; Märta Ström is her guardian (until the day before her 18th birthday). Has a booking today.',
    addresses: [{ type: 'FOLKBOKFORING', street: 'Strömgatan 8', postcode: '118 21', city: 'Stockholm', ...SE }],
    phones: [{ type: 'MOBIL', number: '0739876512', comment: 'Vårdnadshavare Märta' }],
  },
  {
    id: '200404122384', givenNames: ['Anton'], familyName: 'Ström',
    sex: 'M', protectedIdentity: false, slotBase: 400,
    role: 'Now an adult; Märta Ström\'s guardianship expired, so she is refused.',
    addresses: [{
      type: 'FOLKBOKFORING', street: 'Studentvägen 4 lgh 1102', postcode: '752 34', city: 'Uppsala', ...SE,
    }],
    phones: [{ type: 'MOBIL', number: '0762040412' }],
    email: 'anton.strom@example.se',
  },
  {
    id: '194608632396', givenNames: ['Gösta'], familyName: 'Partnersson',
    sex: 'M', protectedIdentity: false, slotBase: 500,
    role: 'Coordination number (day + 60); Märta Ström\'s partner (open-ended). Has medications.',
    addresses: [
      { type: 'UTLANDSK', street: 'Esimerkkikatu 5 B 12', postcode: '00100', city: 'Helsingfors', countryCode: 'FI', country: 'Finland' },
      { type: 'TILLFALLIG', co: 'c/o Ström', street: 'Strömgatan 8', postcode: '118 21', city: 'Stockholm', ...SE },
    ],
    phones: [{ type: 'MOBIL', number: '+358401234567' }],
  },
  {
    id: '197305242385', givenNames: ['Sara'], familyName: 'Skyddad',
    sex: 'F', protectedIdentity: true, slotBase: 600,
    role: 'Protected identity: no delegation counts (not even Märta\'s registered power of attorney); '
      + 'a client token sees no addresses, phone numbers or e-mail.',
    addresses: [{
      type: 'FOLKBOKFORING', street: 'Skyddsvägen 7', postcode: '411 01', city: 'Göteborg', ...SE,
      comment: 'Sekretessmarkering',
    }],
    phones: [{ type: 'MOBIL', number: '0705242385' }, { type: 'ARBETE', number: '031-7305240', comment: 'Ej meddelanden' }],
    email: 'sara.skyddad@example.se',
  },
]);

/** A valid test number the EHR does not know: it gets no folder. */
export const UNKNOWN_PATIENT_ID = '195507142478';

/** The actor of the delegation demo. */
export const DEMO_ACTOR_ID = '198112189876';

/** The OID of a number's kind, as the EHR's documents write it. */
export function idRoot(id: string): string {
  return kindOfNumber(id).oid;
}

/** `YYYYMMDD`, the coordination offset removed. */
export function birthDate(person: DemoPerson): string {
  return birthDateOf(person.id);
}

export function displayName(person: DemoPerson): string {
  return `${person.givenNames[0] ?? ''} ${person.familyName}`.trim();
}

export function demoPerson(id: string): DemoPerson {
  const person = DEMO_PEOPLE.find((p) => p.id === id);
  if (!person) throw new Error(`no demo person ${id}`);
  return person;
}
