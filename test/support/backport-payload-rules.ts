/**
 * What the backport's R4 profiles cannot say, because an R4 notification Bundle does not carry its
 * subscription's payload content: the rules of the IG's "Payload Types" page (payloads.html, STU
 * 1.1.0), judged for the content the caller names. Each message names its section.
 */
export type PayloadContent = 'empty' | 'id-only' | 'full-resource';

type Json = Record<string, unknown>;
interface Part { name?: string; part?: Part[] }
interface Entry { fullUrl?: string; resource?: Json; request?: unknown; response?: unknown }

/** Every way `bundle` breaks the payload rules for `content`; [] when its first entry is no status Parameters (the profile says so). */
export function payloadProblems(bundle: Json, content: PayloadContent): string[] {
  const entries = (Array.isArray(bundle.entry) ? bundle.entry : []) as Entry[];
  const status = entries[0]?.resource;
  if (status?.resourceType !== 'Parameters') return [];
  const parameters = (Array.isArray(status.parameter) ? status.parameter : []) as Part[];
  const issues: string[] = [];
  parameters.forEach((p, i) => {
    if (p.name !== 'notification-event') return;
    const at = `Bundle.entry[0].resource.parameter[${i}]`;
    const parts = p.part ?? [];
    if (content === 'empty') {
      // "Empty": focus and additional-context SHALL NOT be present.
      parts.forEach((part, j) => {
        if (part.name === 'focus' || part.name === 'additional-context') issues.push(`${at}.part[${j}]: an empty payload names no ${part.name} (IG payloads, Empty)`);
      });
    } else if (!parts.some((part) => part.name === 'focus')) {
      // "Id Only" and "Full Resource": notification bundles SHALL include references to the focus resources.
      issues.push(`${at}: an ${content} payload names each event's focus (IG payloads, ${content === 'id-only' ? 'Id Only' : 'Full Resource'})`);
    }
  });
  entries.slice(1).forEach((entry, k) => {
    const at = `Bundle.entry[${k + 1}]`;
    if (content === 'empty') {
      // "Empty": no Bundle.entry other than the status.
      issues.push(`${at}: an empty payload has no entry but the status (IG payloads, Empty)`);
    } else if (content === 'id-only') {
      // "Id Only": each entry SHALL have the resource's URL in fullUrl and request; the resources
      // themselves "are only available through other channels (e.g., REST API)".
      if (entry.fullUrl === undefined) issues.push(`${at}.fullUrl: an id-only entry names its resource's URL (IG payloads, Id Only)`);
      if (entry.request === undefined) issues.push(`${at}.request: an id-only entry names its resource's URL (IG payloads, Id Only)`);
      if (entry.resource !== undefined) issues.push(`${at}.resource: an id-only payload carries no resource (IG payloads, Id Only)`);
    } else if (entry.resource === undefined && entry.request === undefined && entry.response === undefined) {
      // "Full Resource": each entry SHALL contain its resource, or request and/or response where it cannot.
      issues.push(`${at}: a full-resource entry carries its resource, or request or response (IG payloads, Full Resource)`);
    }
  });
  return issues;
}
