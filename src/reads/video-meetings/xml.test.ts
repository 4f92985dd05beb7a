import { describe, expect, it } from 'vitest';
import { mapDocument } from '../../adapters/ehr-xml/index.js';
import { edit, example, ZONE } from '../../../test/adapters/ehr-xml/fixtures.js';

function map(xml: string) {
  const dropped: string[] = [];
  const meetings = mapDocument('videomeetings', xml, { zone: ZONE, onDropped: (r) => dropped.push(r) });
  return { meetings, dropped };
}

const base = example('videomeetings.xml');
const x65 = 'x'.repeat(65);

describe('VideoMeetings example', () => {
  const { meetings, dropped } = map(base);
  const [psych, gp, physio] = meetings;

  it('reads every vm:-prefixed meeting in document order and drops none', () => {
    expect(meetings.map((m) => m.actionId)).toEqual([4711000000123, 4711000000098, 4711000000140]);
    expect(dropped).toEqual([]);
  });

  it('gives start and end as epoch milliseconds of Stockholm summer and winter time', () => {
    expect([psych?.startDateTimeInUnix, psych?.endDateTimeInUnix])
      .toEqual([Date.UTC(2025, 4, 20, 11, 15), Date.UTC(2025, 4, 20, 11, 45)]);
    expect([gp?.startDateTimeInUnix, gp?.endDateTimeInUnix])
      .toEqual([Date.UTC(2025, 2, 20, 9, 0), Date.UTC(2025, 2, 20, 9, 20)]);
    expect(physio?.startDateTimeInUnix).toBe(Date.UTC(2025, 5, 12, 6, 30));
  });

  it('cuts a PerformingUnitName longer than 64 characters to 64', () => {
    expect(psych?.performingUnitName).toBe('Psykiatriska mottagningen för unga vuxna, Exempelsjukhuset Tolvs');
    expect(psych?.performingUnitName).toHaveLength(64);
  });

  it('maps the whole first meeting, a single Staff as a flat array', () => {
    expect(psych).toEqual({
      actionId: 4711000000123,
      startDateTimeInUnix: Date.UTC(2025, 4, 20, 11, 15),
      endDateTimeInUnix: Date.UTC(2025, 4, 20, 11, 45),
      performingUnitName: 'Psykiatriska mottagningen för unga vuxna, Exempelsjukhuset Tolvs',
      serviceName: 'Återbesök psykolog',
      meetingLink: 'https://video.example.se/m/Qw7-2Ks9',
      mainStaff: { name: 'Päivi Psykologsson', type: 'Psykolog' },
      otherStaffList: [{ name: 'Ali Tolk', type: 'Tolk (arabiska)' }],
      server: { discoveryURI: 'https://vms.region.example.se/.well-known/vms', clientID: 'patient-app-onprem', onPremise: true },
    });
  });

  it('decodes CDATA in staff names, &amp; in service names, and gives [] without OtherStaffList', () => {
    expect(gp?.otherStaffList).toEqual([
      { name: 'Sven Sköterska', type: 'Sjuksköterska' },
      { name: 'Läkarstudent <AT> Ödman', type: 'Student' },
    ]);
    expect(gp?.server?.onPremise).toBe(false);
    expect(physio?.serviceName).toBe('Uppföljning knä & höft');
    expect(physio?.otherStaffList).toEqual([]);
  });
});

describe('VideoMeetings limits', () => {
  it('drops a meeting whose link would exceed 64 characters, and says so', () => {
    const { meetings, dropped } = map(edit(base, 'https://video.example.se/m/Fy5-00Ab', `https://video.example.se/m/${x65}`));
    expect(meetings.map((m) => m.actionId)).toEqual([4711000000123, 4711000000098]);
    expect(dropped).toEqual(['video meeting left out: meetingLink longer than 64 characters']);
  });

  it('drops a meeting whose discovery URI or client id would exceed 64 characters', () => {
    const longUri = map(edit(base, 'https://vms.region.example.se/.well-known/vms', `https://${x65}`));
    expect(longUri.meetings.map((m) => m.actionId)).toEqual([4711000000098, 4711000000140]);
    expect(longUri.dropped).toEqual(['video meeting left out: discoveryURI longer than 64 characters']);
    const longClient = map(edit(base, 'patient-app-onprem', x65));
    expect(longClient.meetings).toHaveLength(2);
    expect(longClient.dropped).toEqual(['video meeting left out: clientID longer than 64 characters']);
  });

  it('keeps a link of exactly 64 characters', () => {
    const link = `https://video.example.se/m/${'y'.repeat(64 - 27)}`;
    expect(link).toHaveLength(64);
    expect(map(edit(base, 'https://video.example.se/m/Fy5-00Ab', link)).meetings[2]?.meetingLink).toBe(link);
  });

  it('cuts staff names and types and the service name, counting characters not UTF-16 units', () => {
    const emoji = '\u{1F469}\u200D\u2695\uFE0F'.repeat(20);
    const xml = edit(edit(base, '<vm:Name>Ali Tolk</vm:Name>', `<vm:Name>${'å'.repeat(70)}</vm:Name>`),
      '<vm:Type>Psykolog</vm:Type>', `<vm:Type>${emoji}</vm:Type>`);
    const [psych] = map(xml).meetings;
    expect(psych?.otherStaffList[0]?.name).toBe('å'.repeat(64));
    expect([...(psych?.mainStaff?.type ?? '')]).toHaveLength(64);
    expect(psych?.mainStaff?.type).toBe([...emoji].slice(0, 64).join(''));
  });

  it('keeps at most 32 other staff, the first ones', () => {
    const staff = Array.from({ length: 40 }, (_, i) => `<vm:Staff><vm:Name>S${i}</vm:Name></vm:Staff>`).join('');
    const xml = edit(base, '<vm:Staff>\n        <vm:Name>Ali Tolk</vm:Name>', `${staff}<vm:Staff>\n        <vm:Name>Ali Tolk</vm:Name>`);
    const list = map(xml).meetings[0]?.otherStaffList ?? [];
    expect(list).toHaveLength(32);
    expect(list[0]).toEqual({ name: 'S0' });
    expect(list[31]).toEqual({ name: 'S31' });
  });

  it('keeps an ActionId up to 2^53 - 1 exactly and drops one above it', () => {
    const safe = map(edit(base, '4711000000123', String(Number.MAX_SAFE_INTEGER)));
    expect(safe.meetings[0]?.actionId).toBe(Number.MAX_SAFE_INTEGER);
    const big = map(edit(base, '4711000000123', '9007199254740993'));
    expect(big.meetings.map((m) => m.actionId)).toEqual([4711000000098, 4711000000140]);
    expect(big.dropped).toEqual(['video meeting left out: actionId beyond the exact integer range']);
  });

  it('drops a negative ActionId and a time beyond the spec bounds', () => {
    expect(map(edit(base, '4711000000123', '-1')).dropped).toEqual(['video meeting left out: actionId out of range']);
    const far = map(edit(base, '<vm:EndDateTime value="20250612084500"/>', '<vm:EndDateTime value="99991231235959"/>'));
    expect(far.meetings).toHaveLength(2);
    expect(far.dropped).toEqual(['video meeting left out: time out of range']);
  });

  it('refuses a document whose ActionId is not an integer, or lacks MeetingLink', () => {
    expect(() => map(edit(base, '4711000000123', '4711e3'))).toThrow('bad integer ActionId');
    expect(() => map(edit(base, '<vm:MeetingLink>https://video.example.se/m/Fy5-00Ab</vm:MeetingLink>', ''))).toThrow('missing MeetingLink');
  });
});
