// Synthetic people who can sign in at the demo authorization server. The identity numbers are
// test numbers that match the embedded EHR's demo patients; none belongs to a real person.

export interface DemoPerson {
  /** 12-digit personal identity number, typed into the demo login form as the "login". */
  identityNumber: string;
  name: string;
  /** What signing in as this person shows, for the login page (in English). */
  shows: string;
  /** The same in Swedish. */
  showsSv: string;
}

export const DEMO_PERSONS: readonly DemoPerson[] = Object.freeze([
  { identityNumber: '191212121212', name: 'Tolvan Tolvansson', shows: 'An adult with data in every read: bookings past, today and ahead (some by video), contacts, signals, medications, journal notes.',
    showsSv: 'En vuxen med uppgifter i allt: bokningar bakåt, i dag och framåt (några via video), kontakter, uppmärksamhetssignaler, läkemedel, journalanteckningar.' },
  { identityNumber: '198112189876', name: 'Märta Ström', shows: "Acting for others: with the patient header she reads her daughter Lilla's data (guardian), Tolvan's (power of attorney) and Gösta's (partner); Anton's and Sara's are refused.",
    showsSv: 'Företräder andra: hon läser dottern Lillas uppgifter (vårdnadshavare), Tolvans (fullmakt) och Göstas (partner); Antons och Saras nekas.' },
  { identityNumber: '201701012393', name: 'Lilla Ström', shows: 'A child with a booking today; her guardian Märta can read and check in for her.',
    showsSv: 'Ett barn med en bokning i dag; vårdnadshavaren Märta kan läsa och checka in åt henne.' },
  { identityNumber: '200404122384', name: 'Anton Ström', shows: "Now an adult: his own data; his mother's guardianship has ended.",
    showsSv: 'Nu vuxen: sina egna uppgifter; mammans vårdnad har upphört.' },
  { identityNumber: '194608632396', name: 'Gösta Partnersson', shows: 'A coordination number (day + 60); Märta reads his data as his partner.',
    showsSv: 'Ett samordningsnummer (dag + 60); Märta läser hans uppgifter som partner.' },
  { identityNumber: '197305242385', name: 'Sara Skyddad', shows: 'A protected identity: only she can read her data; nobody can act for her.',
    showsSv: 'Skyddad identitet: bara hon kan läsa sina uppgifter; ingen kan företräda henne.' },
]);

export function findDemoPerson(identityNumber: string): DemoPerson | undefined {
  return DEMO_PERSONS.find((person) => person.identityNumber === identityNumber);
}
