/**
 * Issue 13: the care-contacts mirror document (ContactEHRExtracts, major 2) against the vendor's
 * care contacts v2 layout, field by field, every trap the example lists included.
 */
import { describe, expect, it } from 'vitest';
import { edit, example, HSA, ii, mapExample, TOLVAN } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('contacts');
const base = example('contacts.xml');
const LOCAL = '1.2.752.99999.1.4';

describe('issue 13: ContactEHRExtracts example', () => {
  const answer = map(base);
  const extracts = answer[0]?.contactEHRExtract ?? [];
  const [visit, emergency, phone, admission, cancelled] = extracts;

  it('answers one element holding the five extracts in document order', () => {
    expect(answer).toHaveLength(1);
    expect(extracts.map((e) => e.contact?.contactInternalID)).toEqual(['00771234', '00790417', '00771190', '00769001', '00801122']);
  });

  it('maps the first extract field by field: identifiers, TS values, booleans, text that looks numeric', () => {
    expect(visit).toEqual({
      ehrId: ii('TOLV:EhrId:191212121212', '1.2.752.99999.1.1'),
      ehrSystem: ii('SE2321000016-1SYS', HSA),
      timeCreated: { value: '20250303103012' },
      contact: {
        rcId: ii('TOLV:RcId:Contact:00771234', '1.2.752.99999.1.2'),
        contactInternalID: '00771234',
        contactPerformingUnit: '0004711',
        contactVersionDateTime: { value: '20250303102544' },
        contactTypeOfVisit: 'Mottagningsbesök',
        contactVisitType: 'Nybesök',
        contactCategory1: 'Läkarbesök',
        contactStatus: 'Avslutad',
        contactStatusConfigurationId: 'se.cambiosys.spider.HealthCareModel.HCM_Closed',
        contactActive: true,
        contactBeginDateTime: { value: '20250303093000' },
        contactEndDateTime: { value: '20250303100000' },
        contactShareInfo: true,
        contactRoom: 'Rum 12',
        contactPatientFee: '200',
        contactSecrecyLevels: { secrecyLevel: ['Normal'] },
        actions: {
          action: [
            {
              actionID: '000912001', actionType: 'Besök', actionMain: true, actionCareService: 'Läkarbesök allmänmedicin',
              actionVisitType: 'Nybesök', actionCategory1: 'Läkare', actionStatus: 'Avslutad',
              actionStatusConfigurationId: 'se.cambiosys.spider.HealthCareModel.HCM_Closed',
              actionBeginDateTime: { value: '20250303093000' }, actionEndDateTime: { value: '20250303095000' },
              actionSecrecyLevels: { secrecyLevel: [] },
            },
            {
              actionID: '000912002', actionType: 'Provtagning', actionMain: false,
              actionCareService: 'Blodprov: CRP & P-glukos <fastande>', actionCategory1: 'Sjuksköterska', actionStatus: 'Avslutad',
              actionBeginDateTime: { value: '20250303095000' }, actionEndDateTime: { value: '20250303100000' },
              actionSecrecyLevels: { secrecyLevel: ['Normal'] },
            },
          ],
        },
      },
      patient: {
        patientID: TOLVAN,
        patientInternalID: '00012345',
        patientProtectedId: false,
        patientSecrecyGroups: { group: ['PRIMARVARD'] },
        patientName: {
          patientFamilyName: 'Tolvansson', patientMiddleName: 'Öberg',
          patientGivenName: [{ qualifier: 'CL', value: 'Tolvan' }, { value: 'Nils-Åke' }],
        },
      },
      units: {
        unit: [{
          unitID: ii('SE2321000016-7P4K', HSA),
          unitLocalID: ii('4711', LOCAL),
          unitInternalID: '0004711',
          unitName: 'Vårdcentralen Tolvstad',
          unitSecrecyGroups: { group: ['PRIMARVARD', 'BVC & MVC'] },
          accessZones: { accessZoneID: [ii('00000017', '1.2.752.99999.1.7')] },
          headCareProviderUnitID: ii('SE2321000016-0001', HSA),
          phoneNumbers: { phone: [{ phoneType: 'VAXEL', phoneNumber: '08-46500400', phoneComment: 'Telefontid vardagar 08.00\u201316.00' }] },
          emailAddresses: { Email: [{ EmailType: 'FUNKTION', EmailAddress: 'vc.tolvstad@example.se', EmailComment: 'Ej för vårdärenden' }] },
          unitAddresses: {
            unitAddress: [{
              unitAddressType: 'BESOK', unitAddressAddress: 'Tolvstadsplan 1', unitAddressPostcode: '118 20',
              unitAddressCity: 'Stockholm', unitAddressCounty: 'Stockholms län', unitAddressCountry: 'Sverige',
              unitAddressGeographicalPlace: 'Tolvstad', unitAddressComment: 'Hiss finns <till vänster> om entrén & parkering på gården',
            }],
          },
        }],
      },
      contactPerformingUnit: { unitID: ii('SE2321000016-7P4K', HSA), unitLocalID: ii('4711', LOCAL) },
      contactResponsibleUnit: { unitID: ii('SE2321000016-7P4K', HSA) },
      contactAccessZoneUnit: { unitID: ii('SE2321000016-7P4K', HSA) },
      contactHeadCareProviderUnit: { unitID: ii('SE2321000016-0001', HSA) },
      careProviders: {
        careProvider: [
          {
            careProviderType: 'Ansvarig', careProviderID: ii('SE2321000016-L0K1', HSA), careProviderInternalID: '00031415',
            careProviderName: 'Doris Doktorsson',
            careProviderPosition: { careProviderPositionID: ii('LK', '1.2.752.99999.1.7'), careProviderPositionName: 'Specialist i allmänmedicin' },
            careProviderUnit: { unitID: ii('SE2321000016-7P4K', HSA) },
          },
          {
            careProviderType: 'Utförare', careProviderID: ii('SE2321000016-S5K7', HSA), careProviderInternalID: '00027182',
            careProviderName: 'Sven Sköterska',
            careProviderPosition: { careProviderPositionID: ii('SSK', '1.2.752.99999.1.7'), careProviderPositionName: 'Sjuksköterska' },
          },
        ],
      },
    });
  });

  it('leaves out the empty contactCategory2, the xsi:nil contactBed and the unknown contactTriage', () => {
    expect(visit?.contact).not.toHaveProperty('contactCategory2');
    expect(emergency?.contact).not.toHaveProperty('contactBed');
    expect(JSON.stringify(emergency)).not.toMatch(/triage|ORANGE/i);
  });

  it('reads the prefixed cc:contactEHRExtract and an action given as attributes, booleans typed', () => {
    expect(emergency?.contact?.contactBeginDateTime).toEqual({ value: '20251026023000' });
    expect(emergency?.contact?.actions.action).toEqual([{
      actionID: '000930415', actionType: 'Besök', actionMain: true, actionStatus: 'Avslutad',
      actionCareService: 'Akut omhändertagande, bröstsmärta \u2013 uteslutet hjärtinfarkt',
      actionBeginDateTime: { value: '20251026023000' }, actionEndDateTime: { value: '20251026061500' },
      actionSecrecyLevels: { secrecyLevel: [] },
    }]);
    expect(emergency?.units).toEqual({ unit: [] });
  });

  it('reads the phone contact whose contact members are attributes, and ignores the unknown contactOrigin', () => {
    expect(phone?.contact).toEqual({
      rcId: ii('TOLV:RcId:Contact:00771190', '1.2.752.99999.1.2'),
      contactInternalID: '00771190', contactPerformingUnit: '0004711', contactTypeOfVisit: 'Telefonkontakt',
      contactStatus: 'Avslutad', contactActive: true, contactShareInfo: false,
      contactBeginDateTime: { value: '20250210081000' }, contactEndDateTime: { value: '20250210081800' },
      contactSecrecyLevels: { secrecyLevel: [] },
      actions: { action: [expect.objectContaining({ actionID: '000911877', actionCareService: 'Telefonrådgivning: provsvar & fortsatt planering' })] },
    });
    expect(phone?.patient).toEqual({ patientID: TOLVAN, patientInternalID: '00012345', patientSecrecyGroups: { group: [] } });
  });

  it('keeps a string inside contact and a SimpleUnit beside it under one name (decided by path)', () => {
    expect(admission?.contact?.contactPerformingUnit).toBe('0000023');
    expect(admission?.contactPerformingUnit).toEqual({ unitID: ii('SE2321000016-A23X', HSA), unitLocalID: ii('23', LOCAL) });
  });

  it('maps the admission: the autumn-hour action, discharge, an 8-digit careCommitmentDate, a given name as elements', () => {
    expect(admission?.contact?.actions.action[1]?.actionBeginDateTime).toEqual({ value: '20241027023000' });
    expect(admission?.contact?.discharge).toEqual({
      dischargeDestination: 'Ordinärt boende med hemtjänst', dischargeDateTime: { value: '20241029113000' }, postMortemRequired: false,
    });
    expect(admission?.careCommitment).toEqual({
      careCommitmentID: '000450012', careCommitmentDate: { value: '20241026' },
      careCommitmentClassification: 'Geriatrisk slutenvård & rehabilitering',
    });
    expect(admission?.patient?.patientName).toEqual({ patientFamilyName: 'Tolvansson', patientGivenName: [{ qualifier: 'CL', value: 'Tolvan' }] });
    expect(admission?.units.unit[0]).toMatchObject({ unitName: '23', unitInternalID: '0000023' });
    expect(admission?.contactTechnicalUnit).toEqual({ unitID: ii('SE2321000016-G3R1', HSA), unitLocalID: ii('0230', LOCAL) });
  });

  it('keeps the cancelled contact with its status', () => {
    expect(cancelled?.contact).toMatchObject({ contactActive: false, contactStatus: 'Avbokad', contactShareInfo: false });
    expect(cancelled?.careProviders).toEqual({ careProvider: [] });
  });
});

describe('issue 13: ContactEHRExtracts strictness', () => {
  it('refuses a member given both as attribute and as element, and a repeated single member', () => {
    expect(() => map(edit(base, 'contactShareInfo="false" contactOrigin="TELEFONI">', 'contactShareInfo="false"><contactShareInfo>true</contactShareInfo>')))
      .toThrow('repeated contactShareInfo');
    expect(() => map(edit(base, '<contactRoom>Rum 12</contactRoom>', '<contactRoom>Rum 12</contactRoom><contactRoom>Rum 13</contactRoom>')))
      .toThrow('repeated contactRoom');
  });

  it('converts typed leaves strictly, as elements and as attributes', () => {
    expect(() => map(edit(base, '<contactShareInfo>true</contactShareInfo>\n      <contactRoom>Rum 12', '<contactShareInfo>yes</contactShareInfo>\n      <contactRoom>Rum 12')))
      .toThrow('bad boolean contactShareInfo');
    expect(() => map(edit(base, 'actionMain="true" actionStatus', 'actionMain="1" actionStatus'))).toThrow('bad boolean actionMain');
  });

  it('refuses a TS value that is not a valid 14-digit time or 8-digit date, and treats an empty one as absent', () => {
    for (const bad of ['2025-03-03T09:30:00', '202503030930', '20250230093000', '2025030', 'x']) {
      expect(() => map(edit(base, '<contactBeginDateTime value="20250303093000"/>', `<contactBeginDateTime value="${bad}"/>`)), bad)
        .toThrow('bad time value in value');
    }
    const empty = map(edit(base, '<contactBeginDateTime value="20250303093000"/>', '<contactBeginDateTime value=""/>'));
    expect(empty[0]?.contactEHRExtract[0]?.contact).not.toHaveProperty('contactBeginDateTime');
  });

  it('refuses a document naming another patient', () => {
    expect(() => map(edit(base, '<patientID extension="191212121212" root="1.2.752.129.2.1.3.1"/>\n      <patientInternalID>00012345</patientInternalID>\n      <patientProtectedId>false</patientProtectedId>\n      <patientSecrecyGroups>',
      '<patientID extension="198112189876" root="1.2.752.129.2.1.3.1"/>\n      <patientInternalID>00012345</patientInternalID>\n      <patientProtectedId>false</patientProtectedId>\n      <patientSecrecyGroups>')))
      .toThrow('record of another patient');
  });

  it('answers [] for an empty root, and refuses the retired major-1 document', () => {
    expect(map('<ContactEHRExtracts xmlns="urn:example:ehr:carecontact:2"/>')).toEqual([]);
    expect(() => map('<CareContacts xmlns="urn:example:ehr:carecontact:1"><CareContact><ContactId>1</ContactId></CareContact></CareContacts>'))
      .toThrow('unexpected root element');
  });
});
