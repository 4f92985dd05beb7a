import { addDays, type DemoClock } from './clock.js';
import { RELATIONSHIPS_NS } from './ix.js';
import { birthDate, DEMO_ACTOR_ID, demoPerson } from './people.js';
import { tag, xmlDocument } from './xml.js';

/** Relationships (docs/upstream-ehr.md#3-documents): the delegation registry, one document per actor. */

export interface RelationshipRow {
  patient: string;
  type: 'guardian' | 'power-of-attorney' | 'partner';
  validFrom: string;
  validTo?: string;
}

/** A guardianship ends the day before the child turns 18 (a 29 February child turns 18 on 1 March). */
export function guardianshipEnd(birth: string): string {
  const year = String(Number(birth.slice(0, 4)) + 18).padStart(4, '0');
  return addDays(`${year}${birth.slice(4, 6)}01`, Number(birth.slice(6, 8)) - 2);
}

function guardian(patient: string): RelationshipRow {
  const birth = birthDate(demoPerson(patient));
  return { patient, type: 'guardian', validFrom: birth, validTo: guardianshipEnd(birth) };
}

/** The registry rows of each actor; dates that must stay current are relative to today. */
export function relationshipRows(actor: string, clock: DemoClock): RelationshipRow[] {
  if (actor !== DEMO_ACTOR_ID) return [];
  return [
    guardian('201701012393'),
    // Kept although expired: Anton is an adult now, so Märta must be refused.
    guardian('200404122384'),
    { patient: '191212121212', type: 'power-of-attorney', validFrom: addDays(clock.today, -731),
      validTo: addDays(clock.today, 3 * 365) },
    { patient: '194608632396', type: 'partner', validFrom: '20230901' },
    // A real registry link, but the patient has a protected identity, so it must not count.
    { patient: '197305242385', type: 'power-of-attorney', validFrom: addDays(clock.today, -400) },
  ];
}

export function relationshipsDocument(actor: string, clock: DemoClock): string {
  const root = tag('Relationships', { xmlns: RELATIONSHIPS_NS, actor },
    relationshipRows(actor, clock).map((r) => tag('Relationship', {
      patient: r.patient, type: r.type, validFrom: r.validFrom, validTo: r.validTo,
    })));
  const traps = actor === DEMO_ACTOR_ID
    ? 'Traps: an expired guardianship, an open-ended partner row, a coordination number as patient, '
      + 'a power of attorney for a patient with a protected identity.'
    : 'An actor who acts for nobody: the empty answer.';
  return xmlDocument(root, `GET /ehr/v1/relationships/${actor} (synthetic demo data, generated for ${clock.today}). ${traps}`);
}
