/**
 * Issue 57 item 2: the patient app shows each read as its folder describes it (`app` in its FHIR form,
 * src/reads/app-view.ts), through `virtual:access-log-names` (scripts/app-names/app-reads.ts): a read
 * registered with a description and no code in app/ is one of the app's sections, with its own search,
 * titled with the access log's name of it (test/app-dom/read-sections.test.ts reads and shows it so).
 * Failed before: app/src/load.ts, view.ts, main.ts and i18n.ts named the five reads they showed.
 * A read of two types declares two searches (attention signals: AllergyIntolerance and Flag); failed
 * before: a section had one search, and attention signals had no section.
 */
import { APP_READS } from 'virtual:access-log-names';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { operationDisplayName } from '../../src/domain/access-log/display-names.js';
import { READ_NAMES } from '../../src/domain/operations/table.js';
import { hasSection, type AppSection, type AppView } from '../../src/reads/app-view.js';
import { isServed, NOT_SERVED } from '../../src/reads/read-sources.js';
import { READ_SOURCES } from '../../src/reads/source-table.js';
import { appReadsOf } from '../../scripts/app-names/app-reads.js';

const words = (read: string) => ({ sv: operationDisplayName(read).sv, en: operationDisplayName(read).en });
/** A read as a new folder registers it: a FHIR form whose description is all the app is told. */
const VACCINATIONS = {
  asFhir: {
    types: ['Immunization'],
    app: { search: 'Immunization?patient={id}&_include=Immunization:performer', view: 'list', position: 45 },
    resources: () => [],
  },
} as const;
const named = (read: string) => (read === 'getVaccinations' ? { sv: 'Vaccinationer', en: 'Vaccinations' } : words(read));

describe('issue 57 item 2: the reads the app shows are their folders\' descriptions', () => {
  it('are the registered reads with a section, in their order, titled with the access log\'s names: the build copies nothing', () => {
    expect(APP_READS).toEqual(appReadsOf(READ_SOURCES, words));
    expect(APP_READS.map((r) => r.read)).toEqual(['getAppointments', 'getContacts', 'getJournalNotes', 'getMedications', 'getAttentionSignals', 'getDiagnoses', 'getLabResults']);
    for (const r of APP_READS) expect([r.read, r.title]).toEqual([r.read, words(r.read)]);
    // Every other read served over FHIR says why it has no section of its own.
    for (const read of READ_NAMES) {
      const form = READ_SOURCES[read].asFhir;
      const app: AppView | undefined = isServed(form) ? form.app : undefined;
      if (app === undefined || hasSection(app)) continue;
      expect([read, app.noSection.length > 0]).toEqual([read, true]);
    }
  });

  it('takes in a read registered with a description and no app code, in its place, with its search, title and the list view', () => {
    const reads = appReadsOf({ ...READ_SOURCES, getVaccinations: VACCINATIONS }, named);
    expect(reads.map((r) => r.read)).toEqual(['getAppointments', 'getContacts', 'getJournalNotes', 'getMedications', 'getAttentionSignals', 'getDiagnoses', 'getVaccinations', 'getLabResults']);
    expect(reads.find((r) => r.read === 'getVaccinations')).toEqual({
      read: 'getVaccinations', title: { sv: 'Vaccinationer', en: 'Vaccinations' }, searches: ['Immunization?patient={id}&_include=Immunization:performer'],
      view: 'list', types: ['Immunization'], keepsDigits: false,
    });
    // One NOT_SERVED over FHIR is in neither /fhir nor the app; one that says it has no section is not either.
    const without = appReadsOf({ ...READ_SOURCES, getVaccinations: { asFhir: NOT_SERVED }, getOther: { asFhir: { types: ['Flag'], app: { noSection: 'shown elsewhere' } } } }, named);
    expect(without).toEqual(APP_READS);
  });

  it('carries a read\'s several searches to the app, in the folder\'s order: attention signals are two types, one search each', () => {
    expect(APP_READS.find((r) => r.read === 'getAttentionSignals')).toEqual({
      read: 'getAttentionSignals', title: { sv: 'Uppmärksamhetssignaler', en: 'Attention signals' },
      searches: ['AllergyIntolerance?patient={id}', 'Flag?patient={id}'], view: 'list', types: ['AllergyIntolerance', 'Flag'], keepsDigits: false,
    });
    const twice = { asFhir: { ...VACCINATIONS.asFhir, app: { ...VACCINATIONS.asFhir.app, search: ['Immunization?patient={id}', 'ImmunizationRecommendation?patient={id}'] } } } as const;
    expect(appReadsOf({ getVaccinations: twice }, named).map((r) => r.searches)).toEqual([['Immunization?patient={id}', 'ImmunizationRecommendation?patient={id}']]);
    // A section that sends no search would show nothing: the type refuses it (checked by `npm run typecheck`).
    expectTypeOf<readonly []>().not.toMatchTypeOf<AppSection['search']>();
    expectTypeOf<readonly ['Flag?patient={id}']>().toMatchTypeOf<AppSection['search']>();
  });
});
