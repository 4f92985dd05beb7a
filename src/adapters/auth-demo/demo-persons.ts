// Synthetic people who can sign in at the demo authorization server. The identity numbers are
// test numbers that match the embedded EHR's demo patients; none belongs to a real person.

export interface DemoPerson {
  /** 12-digit personal identity number, typed into the demo login form as the "login". */
  identityNumber: string;
  name: string;
}

export const DEMO_PERSONS: readonly DemoPerson[] = Object.freeze([
  { identityNumber: '191212121212', name: 'Tolvan Tolvansson' },
  { identityNumber: '198112189876', name: 'Märta Ström' },
  { identityNumber: '201701012393', name: 'Lilla Ström' },
  { identityNumber: '200404122384', name: 'Anton Ström' },
  { identityNumber: '194608632396', name: 'Gösta Partnersson' },
  { identityNumber: '197305242385', name: 'Sara Skyddad' },
]);

export function findDemoPerson(identityNumber: string): DemoPerson | undefined {
  return DEMO_PERSONS.find((person) => person.identityNumber === identityNumber);
}
