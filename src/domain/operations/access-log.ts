import { INTERVAL, WHO } from './docs-text.js';
import type { AccessLogRead } from './operation.js';
import { AccessLogQuery } from './parameters.js';

/** The patient's access log (docs/contract.md#the-patients-access-log): who read or changed their data. */
export const getAccessLog: AccessLogRead = {
  handler: 'accessLog',
  method: 'GET',
  scope: { name: 'user/AccessLog-read', description: 'Read who has accessed the patient\'s data (the access log)', aliases: ['user/AuditEvent.read', 'patient/AuditEvent.read'] },
  displayName: { sv: 'Loggen över vem som tagit del av uppgifterna', en: 'The log of who accessed the data' },
  errorShape: 'status',
  path: '/patients/accesslog/',
  vendorPaths: [],
  query: AccessLogQuery,
  docs: {
    tag: { name: 'Access log', description: "Who has accessed the patient's data: the patient's right under PDL 8 kap. 5 §." },
    summary: "Read who has accessed the patient's data",
    description: 'Every recorded request about the patient, oldest first: when, which operation (with Swedish and English names), '
      + 'what came of it, on what basis (the patient, a guardian, a representative, a partner or a care provider\'s system), the '
      + 'application and the request id; refused and failed requests too. A guardian\'s, representative\'s or partner\'s identity '
      + 'number is shown only to that person and to the patient; a refused person is shown as refused, without a number. '
      + `Pages of \`limit\` entries (1-500, default 100); the next page's URL is in the \`Link: <...>; rel="next"\` header, absent on the last page. ${INTERVAL} `
      + `Reading the log is itself recorded. With \`Accept: application/fhir+json\` the page is a FHIR Bundle of AuditEvents (IHE BALP). ${WHO}`,
    success: 'A page of the log, oldest first; an empty array when nothing was recorded in the interval.',
  },
};
