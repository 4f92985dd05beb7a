/**
 * getContacts as FHIR: the demo people's contacts come back exactly (describeFhirForm), and what the
 * demo does not hold: legacy secrecy levels and statuses, a 14-digit time in summer and winter, text
 * with inner spaces and line breaks, a category that is no encounter class or none at all, a bed,
 * and a discharge without a destination.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { CareContact, ContactEhrExtract } from '../../domain/records/index.js';
import type { DemoPerson } from '../../dev/demo-data/people.js';
import { describeFhirForm } from '../../../test/support/as-fhir-proof.js';
import { asFhirContext, readBack, recordsOverFhir, structureProblems } from '../../../test/support/as-fhir-round-trip.js';
import { CONFIDENTIALITY } from '../as-fhir-common.js';
import type { FhirResource } from '../as-fhir.js';
import { contactsAsFhir } from './as-fhir.js';

describeFhirForm('getContacts', []);

describe('getContacts as FHIR, beyond the demo', () => {
  let person: DemoPerson;
  let record: CareContact;
  beforeAll(async () => {
    const found = (await recordsOverFhir('getContacts')).find((p) => p.records.length > 0);
    if (found === undefined) throw new Error('no demo contacts');
    ({ person } = found);
    record = found.records[0] as CareContact;
  }, 60_000);

  type Contact = NonNullable<ContactEhrExtract['contact']>;
  /** The first extract with its contact changed by `edit`, written as FHIR and sent through JSON as the API sends it; valid R4. */
  const written = (edit: (c: Contact) => void): { extract: ContactEhrExtract; resources: FhirResource[] } => {
    const extract = structuredClone(record.contactEHRExtract[0]) as ContactEhrExtract;
    edit(extract.contact as Contact);
    const resources = JSON.parse(JSON.stringify(contactsAsFhir.resources([{ contactEHRExtract: [extract] }], asFhirContext(person)))) as FhirResource[];
    expect(structureProblems(resources)).toEqual([]);
    return { extract, resources };
  };
  const back = (resources: FhirResource[]): Contact => readBack('getContacts', person, resources)[0]?.contactEHRExtract[0]?.contact as Contact;
  const encounter = (resources: FhirResource[]) => resources.find((r) => r.resourceType === 'Encounter') as Record<string, unknown>;

  it('writes legacy secrecy levels as the label R, and Normal as none', () => {
    const { resources } = written((c) => {
      c.contactSecrecyLevels = { secrecyLevel: ['Normal', 'Sekretess'] };
    });
    expect(encounter(resources).meta).toMatchObject({ security: [{ system: CONFIDENTIALITY, code: 'R' }] });
    expect(back(resources).contactSecrecyLevels).toEqual({ secrecyLevel: ['R'] });
  });

  it('writes legacy statuses as the codes the same contacts have over FHIR', () => {
    for (const [word, code] of [['Avslutad', 'finished'], ['Avbokad', 'cancelled'], ['Planerad', 'planned'], ['Okänd', 'unknown']] as const) {
      const { resources } = written((c) => {
        c.contactStatus = word;
      });
      expect(encounter(resources).status, word).toBe(code);
      expect(back(resources)).toMatchObject({ contactStatus: code, contactActive: code !== 'cancelled' });
    }
  });

  it('writes a 14-digit time with the offset of its season, and a date as a date', () => {
    const { extract, resources } = written((c) => {
      c.contactBeginDateTime = { value: '20260701100000' };
      c.contactEndDateTime = { value: '20261214093000' };
      c.contactVersionDateTime = { value: '20261214093000' };
    });
    expect(encounter(resources)).toMatchObject({
      period: { start: '2026-07-01T10:00:00+02:00', end: '2026-12-14T09:30:00+01:00' }, meta: { lastUpdated: '2026-12-14T09:30:00+01:00' },
    });
    expect(back(resources)).toEqual(extract.contact);
    const dated = written((c) => {
      c.contactBeginDateTime = { value: '20260701' };
      c.contactEndDateTime = { value: '20260702' };
    });
    expect(encounter(dated.resources).period).toEqual({ start: '2026-07-01', end: '2026-07-02' });
    expect(back(dated.resources)).toEqual(dated.extract.contact);
  });

  it('copies text exactly, inner spaces and line breaks', () => {
    const { extract, resources } = written((c) => {
      c.contactTypeOfVisit = '  Mottagnings besök\n\ttelefon ';
      c.contactVisitType = 'Ny  besök';
      c.contactRoom = 'Sal  4\n';
    });
    expect(back(resources)).toEqual(extract.contact);
  });

  it('writes a category that is no encounter class as the display alone, and none as an unknown class', () => {
    const text = written((c) => {
      c.contactCategory1 = 'Läkare';
    });
    expect(encounter(text.resources).class).toEqual({ display: 'Läkare' });
    expect(back(text.resources)).toEqual(text.extract.contact);
    const none = written((c) => {
      delete c.contactCategory1;
    });
    expect(back(none.resources)).toEqual(none.extract.contact);
  });

  it('writes a room and a bed as Locations of their types, and a discharge without a destination', () => {
    const { extract, resources } = written((c) => {
      c.contactRoom = 'Sal 4';
      c.contactBed = 'Säng 2';
      c.discharge = { dischargeDateTime: c.contactEndDateTime };
    });
    expect(resources.filter((r) => r.resourceType === 'Location').map((r) => r.name)).toEqual(['Sal 4', 'Säng 2']);
    expect(back(resources)).toEqual(extract.contact);
  });
});
