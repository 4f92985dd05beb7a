import { describe, expect, it } from 'vitest';
import { mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example, ZONE } from './fixtures.js';

const map = (xml: string) => mapDocument('contacts', xml, { zone: ZONE });
const base = example('contacts.xml');

describe('CareContacts example', () => {
  const contacts = map(base);

  it('maps every contact in document order, field by field', () => {
    expect(contacts).toEqual([
      {
        contactId: '00012345', contactType: 'visit', status: 'PLANNED',
        startDateTimeInUnix: Date.UTC(2025, 6, 4, 12, 30), endDateTimeInUnix: Date.UTC(2025, 6, 4, 13, 0),
        performingUnitName: 'Tandvården Exempelsjukhuset', careGiverName: 'Åsa Ärlig', reason: 'Årlig undersökning',
      },
      {
        contactId: '00769001', contactType: 'admission', status: 'IN_PROGRESS',
        startDateTimeInUnix: Date.UTC(2024, 9, 26, 20, 15),
        performingUnitName: '23', careGiverName: 'Sven Sköterska', reason: 'Observation efter fall i hemmet',
      },
      {
        contactId: '00771234', contactType: 'phone', status: 'FINISHED',
        startDateTimeInUnix: Date.UTC(2025, 1, 10, 7, 10), endDateTimeInUnix: Date.UTC(2025, 1, 10, 7, 18),
        performingUnitName: 'Vårdcentralen Tolvstad', careGiverName: 'Doris Doktorsson',
      },
      {
        contactId: '4711000000098', contactType: 'video', status: 'FINISHED',
        startDateTimeInUnix: Date.UTC(2025, 2, 20, 9, 0), endDateTimeInUnix: Date.UTC(2025, 2, 20, 9, 20),
        performingUnitName: 'Vårdcentralen Tolvstad', careGiverName: 'Doris Doktorsson', reason: 'Provsvar & fortsatt planering',
      },
      {
        contactId: '00772001', contactType: 'other', status: 'FINISHED',
        startDateTimeInUnix: Date.UTC(2025, 2, 3, 11, 0),
        performingUnitName: 'Vårdcentralen Tolvstad', careGiverName: 'Doris Doktorsson',
      },
    ]);
  });

  it('leaves out the missing end of a running admission and the empty Reason', () => {
    expect(contacts[1]).not.toHaveProperty('endDateTimeInUnix');
    expect(contacts[2]).not.toHaveProperty('reason');
  });
});

describe('CareContacts strictness', () => {
  it('maps a code that only looks like a known one to other', () => {
    expect(map(edit(base, '<ContactType>BESOK</ContactType>', '<ContactType>besok</ContactType>'))[0]?.contactType).toBe('other');
    expect(map(edit(base, '<ContactType>BESOK</ContactType>', '<ContactType>constructor</ContactType>'))[0]?.contactType).toBe('other');
  });

  it('refuses a contact without a required element', () => {
    expect(() => map(edit(base, '<CareGiverName>Åsa Ärlig</CareGiverName>', ''))).toThrow('missing CareGiverName');
    expect(() => map(edit(base, '<Status>PLANNED</Status>', '<Status/>'))).toThrow('missing Status');
    expect(() => map(edit(base, '<StartDateTime value="20250303120000"/>', '<StartDateTime value=""/>'))).toThrow('missing StartDateTime');
  });

  it('refuses a time value that is not a valid compact timestamp', () => {
    for (const bad of ['2025-07-04T14:30:00', '202507041430', '20250230143000', '20250704243000', '2025070415000x']) {
      expect(() => map(edit(base, '20250704150000', bad)), bad).toThrow('bad time value in EndDateTime');
    }
  });

  it('refuses a contact with two ContactIds instead of picking one', () => {
    expect(() => map(edit(base, '<ContactId>00012345</ContactId>', '<ContactId>00012345</ContactId><ContactId>1</ContactId>')))
      .toThrow('repeated ContactId');
  });
});
