/**
 * The drop-in booking starts 45 minutes from now, rounded up to five (src/dev/demo-data/clock.ts): at
 * some minutes of the day that fell on another booking of the same person, and the patient app showed
 * two cards at one time. CI failed so at 07:10 in Stockholm, when Tolvan's drop-in came to his 08:00 visit
 * (test/e2e/patient-app-record-browser.e2e.test.ts, "no bare booking beside it at the same time").
 */
import { describe, expect, it } from 'vitest';
import { appointmentsOf } from '../../../src/dev/demo-data/appointments.js';
import { demoClock } from '../../../src/dev/demo-data/clock.js';
import { DEMO_PEOPLE } from '../../../src/dev/demo-data/people.js';

const ZONE = 'Europe/Stockholm';
const MINUTE_MS = 60_000;

describe('the drop-in booking of the demo data', () => {
  it('never starts at the time of another booking of the same person, at any minute of a day', () => {
    const midnight = Date.parse('2026-11-26T00:00:00+01:00');
    const clashes: string[] = [];
    for (let minute = 0; minute < 24 * 60; minute++) {
      const clock = demoClock(midnight + minute * MINUTE_MS, ZONE);
      for (const person of DEMO_PEOPLE) {
        const starts = appointmentsOf(person, clock).map((a) => a.start);
        if (new Set(starts).size !== starts.length) clashes.push(`${person.id} at minute ${minute}: ${starts.join(', ')}`);
      }
    }
    expect(clashes).toEqual([]);
  });

  it('stays 45 minutes ahead, rounded up to five, when that time is free', () => {
    const clock = demoClock(Date.parse('2026-11-26T09:02:00+01:00'), ZONE);
    expect(clock.dropIn).toBe('20261126095000');
    const tolvan = DEMO_PEOPLE.find((p) => p.id === '191212121212');
    expect(appointmentsOf(tolvan!, clock).find((a) => a.appointment?.time === undefined)?.start).toBe('20261126095000');
  });
});
