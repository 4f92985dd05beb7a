/**
 * `Prefer: handling=strict` (FHIR R4 §3.1.0.1.10), read as RFC 7240 §2 writes a preference:
 * `token [ BWS "=" BWS word ]`, a word being a token or a quoted string, names case-insensitive,
 * preferences separated by commas (in one header or several), parameters after `;`. Each form is
 * strict: a client that quotes the value, as the RFC allows, must not get the lenient search it did not
 * ask for (issue 52 item 12).
 */
const PREFERENCE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([!#$%&'*+.^_`|~0-9A-Za-z-]+)))?\s*$/;

/** The preferences of a Prefer header, each split off before its parameters; quoted commas kept. */
function preferences(header: string): string[] {
  const found: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header[i];
    if (quoted && c === '\\') {
      current += c + (header[i + 1] ?? '');
      i++;
    } else {
      if (c === '"') quoted = !quoted;
      if (!quoted && c === ',') {
        found.push(current);
        current = '';
      } else current += c;
    }
  }
  found.push(current);
  return found.map((p) => splitParameters(p));
}

/** A preference without its `;` parameters (a `;` inside a quoted value stays). */
function splitParameters(preference: string): string {
  let quoted = false;
  for (let i = 0; i < preference.length; i++) {
    const c = preference[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (!quoted && c === ';') return preference.slice(0, i).trim();
  }
  return preference.trim();
}

/** Whether the request's Prefer header(s) ask for strict handling. */
export function prefersStrictHandling(header: string | string[] | undefined): boolean {
  const headers = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return headers.flatMap(preferences).some((p) => {
    const m = PREFERENCE.exec(p);
    if (m === null || m[1]?.toLowerCase() !== 'handling') return false;
    const value = m[2] === undefined ? m[3] : m[2].replace(/\\(.)/g, '$1');
    // In any case: a client that wrote `STRICT` did not ask for the lenient search (fail closed).
    return value?.toLowerCase() === 'strict';
  });
}
