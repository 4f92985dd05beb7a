/** The words of the record's appointments and access log views in Swedish and English (i18n.ts holds the page's own). */
import type { Words } from './i18n.js';

export const APPOINTMENT_WORDS = {
  upcoming: { sv: 'Kommande', en: 'Upcoming' },
  past: { sv: 'Tidigare', en: 'Past' },
  next: { sv: 'Nästa besök', en: 'Next appointment' },
  noUpcoming: { sv: 'Inga kommande besök.', en: 'No upcoming appointments.' },
} as const satisfies Record<string, Words>;

export const LOG_WORDS = {
  intro: {
    sv: 'Per dag och per person och app, senaste först. Öppna en rad för att se varje händelse.',
    en: 'By day and by person and app, newest first. Open a line to see each event.',
  },
  event: { sv: 'händelse', en: 'event' },
  events: { sv: 'händelser', en: 'events' },
  newer: { sv: 'Nyare', en: 'Newer' },
  older: { sv: 'Äldre', en: 'Older' },
  page: { sv: 'Sida {page} av {pages}', en: 'Page {page} of {pages}' },
  pages: { sv: 'Loggens sidor', en: 'Pages of the log' },
} as const satisfies Record<string, Words>;
