/**
 * Issue 57 item 2: the patient app names the summary's sections as their reads' folders declare them
 * (`summary.words`, through `virtual:access-log-names`), so a new read's section is named in the app
 * with no edit in app/; the four IPS sections keep the names the app gave them.
 */
import { SUMMARY_SECTIONS } from 'virtual:access-log-names';
import { describe, expect, it } from 'vitest';
import { IPS_SECTIONS } from '../../src/domain/fhir/ips-sections.js';

describe('issue 57 item 2: the app\'s names of the summary\'s sections', () => {
  it('are the declared sections\', one a section, the four IPS sections as the app has always named them', () => {
    expect(Object.keys(SUMMARY_SECTIONS).sort()).toEqual(IPS_SECTIONS.map((s) => s.code).sort());
    expect(SUMMARY_SECTIONS).toMatchObject({
      '11450-4': { sv: 'Problem och diagnoser', en: 'Problems' },
      '48765-2': { sv: 'Allergier och överkänslighet', en: 'Allergies and intolerances' },
      '10160-0': { sv: 'Läkemedel', en: 'Medications' },
      '30954-2': { sv: 'Provsvar', en: 'Results' },
    });
  });
});
