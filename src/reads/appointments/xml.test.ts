import { describe, expect, it } from 'vitest';
import { edit, example, mapExample, PATIENT } from '../../../test/adapters/ehr-xml/fixtures.js';

const map = mapExample('bookings');

describe('BookedAppointmentsResults example', () => {
  const results = map(example('bookings.xml'));
  const [ok, info] = results;
  const [dental, primary] = ok?.Booking ?? [];

  it('keeps two results and the bookings in document order (selectInRange sorts)', () => {
    expect(results).toHaveLength(2);
    expect(ok?.Booking.map((b) => b.ContactId)).toEqual(['00012345', '4711923']);
  });

  it('reads the prefixed b:Booking and keeps ContactId zeros', () => {
    expect(primary?.ContactId).toBe('4711923');
    expect(dental?.ContactId).toBe('00012345');
  });

  it('gives StartTime as local display text and TypedStartDateTime as the UTC instant', () => {
    expect([dental?.StartTime, dental?.TypedStartDateTime]).toEqual(['2025-07-04 14:30', '2025-07-04T12:30:00Z']);
    expect([primary?.StartTime, primary?.TypedStartDateTime]).toEqual(['2025-03-14 09:30', '2025-03-14T08:30:00Z']);
    const registered = ok?.RegisteredBooking[0];
    expect([registered?.StartTime, registered?.TypedStartDateTime]).toEqual(['2025-10-27 08:15', '2025-10-27T07:15:00Z']);
  });

  it('maps the performing unit with its address, leaving the empty CareOfAddress out', () => {
    expect(dental?.PerformingUnit).toEqual({
      Name: 'Tandvården Exempelsjukhuset',
      Id: '00000815',
      HSAId: 'SE2321000016-TND1',
      Address: {
        StreetAddress: 'Sjukhusvägen 1, hus 7', PostalCode: '118 83', City: 'Stockholm', Country: 'Sverige',
        Type: { Id: '01', Name: 'Besöksadress' },
      },
    });
    expect(primary?.PerformingUnit?.Address?.CareOfAddress).toBe('c/o Hälsans hus');
  });

  it('types Price and Reduction as numbers and leaves the empty ReductionReason out', () => {
    expect(dental?.PaymentDetails).toEqual({ Price: 250, Reduction: 0 });
    expect(primary?.PaymentDetails).toEqual({ Price: 200, Reduction: 200, ReductionReason: 'Frikort' });
  });

  it('decodes CDATA and entities in texts', () => {
    expect(dental?.PatientInformation).toBe('Kom 10 minuter före. Ta med <legitimation> & ev. frikort.');
    expect(primary?.PatientInformation).toBe('Provtagning & läkarbesök. Kom fastande.');
    expect(info?.Comment).toBe('Tidboken för Ungdomsmottagningen svarade inte \u2013 bokningar därifrån saknas');
  });

  it('keeps Any content as untyped text and gives [] without Any', () => {
    expect(dental?.Any).toEqual([{ Channel: '1177', ExternalBookingRef: '000042' }]);
    expect(primary?.Any).toEqual([]);
    expect(ok?.RegisteredBooking[0]?.Any).toEqual([{ Channel: 'Webbtidbok', Confirmed: 'true' }]);
    expect(ok?.Any).toEqual([{ Source: 'COSMIC', Generated: '20250302181500' }]);
  });

  it('maps the registered booking', () => {
    expect(ok?.RegisteredBooking).toHaveLength(1);
    expect(ok?.RegisteredBooking[0]).toMatchObject({
      BookingId: 'WB-2025-000731', CareGiver: 'Fredrik Fysiosson', PatientInformation: 'Ombyte och handduk.',
      PerformingUnit: { Name: 'Fysioterapin Tolvstad', Id: '00004712', HSAId: 'SE2321000016-F3YS' },
    });
    expect(ok?.RegisteredBooking[0]?.PerformingUnit?.Address).not.toHaveProperty('CareOfAddress');
  });

  it('maps the patient summary: repeated elements without wrappers, single ones as arrays', () => {
    expect(ok?.Patient).toEqual({
      Name: 'Tolvan Tolvansson',
      PersonNumbers: [{ Number: PATIENT, Type: { Id: '1.2.752.129.2.1.3.1', Name: 'Personnummer' } }],
      Addresses: [{
        StreetAddress: 'Tolvansgatan 12 lgh 1203', CareOfAddress: 'c/o Märta Ström', PostalCode: '118 20',
        City: 'Stockholm', Country: 'Sverige', Type: { Id: '02', Name: 'Folkbokföringsadress' },
      }],
      PhoneNumbers: [
        { Number: '0701740605', Type: { Id: 'MOBIL', Name: 'Mobiltelefon' } },
        { Number: '08-46500412', Type: { Id: 'HEM', Name: 'Hemtelefon' } },
      ],
    });
    expect(ok?.ResultCode).toBe('OK');
    expect(ok?.Comment).toBe('3 bokningar hittades');
  });

  it('keeps an INFO result without bookings, with empty arrays and no patient', () => {
    expect(info).toEqual({
      Booking: [], RegisteredBooking: [], ResultCode: 'INFO',
      Comment: 'Tidboken för Ungdomsmottagningen svarade inte \u2013 bokningar därifrån saknas', Any: [],
    });
  });
});

describe('BookedAppointmentsResults strict conversions', () => {
  const base = example('bookings.xml');

  it('refuses a Price with a decimal comma', () => {
    expect(() => map(edit(base, '<Price>250.00</Price>', '<Price>250,00</Price>'))).toThrow('bad number Price');
  });

  it('refuses a StartTime that is only a date', () => {
    expect(() => map(edit(base, '<StartTime value="20250704143000"/>', '<StartTime value="20250704"/>')))
      .toThrow('bad time value in StartTime');
  });

  it('refuses a booking without ContactId', () => {
    expect(() => map(edit(base, '<ContactId>4711923</ContactId>', ''))).toThrow('missing ContactId');
  });

  it('refuses an unknown ResultCode', () => {
    expect(() => map(edit(base, '<ResultCode>INFO</ResultCode>', '<ResultCode>WARN</ResultCode>'))).toThrow('bad ResultCode');
  });

  it('refuses a result without ResultCode', () => {
    expect(() => map(edit(base, '<ResultCode>INFO</ResultCode>', ''))).toThrow('missing ResultCode');
  });

  it('reads Any as free form: nesting, repetition, and no attributes', () => {
    const xml = edit(base, '<Channel>1177</Channel>',
      '<Channel ref="x">1177</Channel><Tag>a</Tag><Tag>b</Tag><Tag/><Nested><Deep>01</Deep><Empty/></Nested><Blank/>');
    expect(map(xml)[0]?.Booking[0]?.Any).toEqual([
      { Channel: '1177', Tag: ['a', 'b'], Nested: { Deep: '01' }, ExternalBookingRef: '000042' },
    ]);
  });
});
