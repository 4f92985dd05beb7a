import { describe, expect, it } from 'vitest';
import { MalformedDocumentError, mapDocument } from '../../../src/adapters/ehr-xml/index.js';
import { edit, example, ZONE } from './fixtures.js';

const base = example('patient.xml');
const patientOf = (xml: string) => mapDocument('patient', xml, { zone: ZONE })[0]?.PatientEHRExtract[0]?.Patient;
const extractOf = (xml: string) => mapDocument('patient', xml, { zone: ZONE })[0]?.PatientEHRExtract[0];
const RC_ID = '<rc_id extension="000120034" root="1.2.752.99999.1.2"/>';
const PATIENT_ID = '<PatientID extension="191212121212" root="1.2.752.129.2.1.3.1"/>';

describe('absence', () => {
  it('leaves out an ID with a missing or empty attribute', () => {
    expect(patientOf(edit(base, RC_ID, '<rc_id extension="000120034"/>'))).not.toHaveProperty('rc_id');
    expect(patientOf(edit(base, RC_ID, '<rc_id extension="" root="1.2.752.99999.1.2"/>'))).not.toHaveProperty('rc_id');
    expect(patientOf(edit(base, RC_ID, '<rc_id>000120034</rc_id>'))).not.toHaveProperty('rc_id');
  });

  it('treats a required ID without its attributes as missing', () => {
    expect(() => patientOf(edit(base, PATIENT_ID, '<PatientID root="1.2.752.129.2.1.3.1"/>'))).toThrow('missing PatientID');
  });

  it('leaves out a TV without value, an empty xsi:nil element and a text leaf with attributes only', () => {
    expect(patientOf(edit(base, '<PatientVersionDateTime value="20240611143012"/>', '<PatientVersionDateTime value=""/>')))
      .not.toHaveProperty('PatientVersionDateTime');
    expect(patientOf(edit(base, '<PatientSex>M</PatientSex>', '<PatientSex xsi:nil="true"/>'))).not.toHaveProperty('PatientSex');
    expect(patientOf(edit(base, '<PatientSex>M</PatientSex>', '<PatientSex code="M"/>'))).not.toHaveProperty('PatientSex');
  });

  // Hostile review helper-216, F8: what a nil element holds was dropped unseen.
  it('refuses an xsi:nil element that holds text or elements', () => {
    expect(() => patientOf(edit(base, '<pat:PatientName>', '<pat:PatientName xsi:nil="true">'))).toThrow(MalformedDocumentError);
    expect(() => patientOf(edit(base, '<PatientSex>M</PatientSex>', '<PatientSex xsi:nil="true">M</PatientSex>'))).toThrow(MalformedDocumentError);
  });

  it('keeps the text of a leaf that carries an unknown attribute, trimmed', () => {
    expect(patientOf(edit(base, '<PatientSex>M</PatientSex>', '<PatientSex lang="sv">  M  </PatientSex>'))?.PatientSex).toBe('M');
    expect(patientOf(edit(base, '<PatientSex>M</PatientSex>', '<PatientSex><![CDATA[  F ]]></PatientSex>'))?.PatientSex).toBe('F');
  });

  it('decodes the five XML entities and decimal and hexadecimal character references', () => {
    const xml = edit(base, '<PatientSex>M</PatientSex>', '<PatientSex>&lt;&gt;&amp;&quot;&apos; &#229;&#xE5;&#xC4; &#8211;</PatientSex>');
    expect(patientOf(xml)?.PatientSex).toBe('<>&"\' ååÄ \u2013');
  });

  it('ignores elements and attributes a minor version adds', () => {
    const grown = edit(base, '<PatientSex>M</PatientSex>', '<PatientSex>M</PatientSex><PatientNickname>Tolle</PatientNickname>');
    expect(JSON.stringify(patientOf(grown))).not.toContain('Tolle');
    expect(patientOf(edit(base, PATIENT_ID, PATIENT_ID.replace('/>', ' assigner="SKV"/>')))?.PatientID)
      .toEqual({ extension: '191212121212', root: '1.2.752.129.2.1.3.1' });
  });
});

describe('strictness', () => {
  it('refuses an element repeated where one is expected', () => {
    expect(() => patientOf(edit(base, '<PatientSex>M</PatientSex>', '<PatientSex>M</PatientSex><PatientSex>F</PatientSex>')))
      .toThrow('repeated PatientSex');
  });

  it('refuses text where an object is expected, and elements where text is expected', () => {
    const register = /<PatientDataRegister>[\s\S]*<\/PatientDataRegister>/.exec(base)?.[0] ?? '';
    expect(() => patientOf(edit(base, register, '<PatientDataRegister>Stockholm</PatientDataRegister>')))
      .toThrow('unexpected text in PatientDataRegister');
    expect(() => patientOf(edit(base, '<PatientSex>M</PatientSex>', '<PatientSex><Code>M</Code></PatientSex>'))).toThrow('unexpected content in PatientSex');
  });

  it('refuses a missing or untyped XSD version', () => {
    expect(() => patientOf(edit(base, '<XSDVersion version="3.2"/>', ''))).toThrow('missing XSDVersion');
    expect(() => patientOf(edit(base, '<XSDVersion version="3.2"/>', '<XSDVersion version="3,2"/>'))).toThrow('bad number version');
    expect(() => patientOf(edit(base, '<XSDVersion version="3.2"/>', '<XSDVersion version=""/>'))).toThrow('missing version');
  });

  it('refuses an extract without ehr_id or time_created, and a bad time_created', () => {
    expect(() => extractOf(edit(base, '<time_created value="20250303080512"/>', ''))).toThrow('missing time_created');
    expect(() => extractOf(edit(base, '<time_created value="20250303080512"/>', '<time_created value="20250303080560"/>')))
      .toThrow('bad time value in time_created');
    expect(() => extractOf(edit(base, '<ehr_id extension="7c0e4a8e-2d1b-4f3a-9e55-31b2c7d90a11" root="1.2.752.99999.1.1"/>', '')))
      .toThrow('missing ehr_id');
  });

  it('accepts exactly true and false as booleans', () => {
    expect(patientOf(edit(base, '<PatientProtectedId>false</PatientProtectedId>', '<PatientProtectedId>true</PatientProtectedId>'))?.PatientProtectedId).toBe(true);
    for (const bad of ['1', '0', 'True', 'yes', 'falsee']) {
      expect(() => patientOf(edit(base, '<PatientProtectedId>false</PatientProtectedId>', `<PatientProtectedId>${bad}</PatientProtectedId>`)), bad)
        .toThrow('bad boolean PatientProtectedId');
    }
  });
});

describe('integers and numbers', () => {
  const meds = example('medications.xml');
  const dosage = (xml: string) =>
    mapDocument('medications', xml, { zone: ZONE })[0]?.PrescriptionEHRExtract[0]?.Prescription?.PrescriptionDosages?.DosagePlugin[0]?.IX3Dosage;
  const withAdminTimes = (v: string) => edit(meds, '<NoOfAdminTimes>3</NoOfAdminTimes>', `<NoOfAdminTimes>${v}</NoOfAdminTimes>`);

  it('reads optional minus and digits, leading zeros included', () => {
    expect(dosage(withAdminTimes('-2'))?.NoOfAdminTimes).toBe(-2);
    expect(dosage(withAdminTimes('007'))?.NoOfAdminTimes).toBe(7);
  });

  it('refuses anything else, and integers a JS number cannot hold exactly', () => {
    for (const bad of ['+3', '3e2', '0x10', '1 000', '9007199254740993']) {
      expect(() => dosage(withAdminTimes(bad)), bad).toThrow('bad integer NoOfAdminTimes');
    }
  });

  it('reads a Code with one part missing', () => {
    const xml = edit(meds, '<MedicationChoice codeSystem="1.2.752.99999.2.1">\n          <displayName value="Utbyte tillåtet"/>',
      '<MedicationChoice>\n          <displayName value="Utbyte tillåtet"/>');
    expect(mapDocument('medications', xml, { zone: ZONE })[0]?.PrescriptionEHRExtract[0]?.Prescription?.MedicationChoice)
      .toEqual({ displayName: { value: 'Utbyte tillåtet' } });
  });
});
