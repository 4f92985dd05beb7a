/**
 * Journal documents of about `bytes` (the cap is 10 MiB) in the shapes that used to hold the event
 * loop (issue 20 item 2): each shape built into a real journal, so each is read (and mostly mapped)
 * to the end. Used by the test of the reader's slices (hostile-shapes.test.ts) and by the bench
 * (bench/hostile.ts), so both measure the same documents.
 */

export interface HostileDocument {
  name: string;
  xml: string;
  /** The first note's template name as the patient should get it (for shapes that fill it). */
  templateName?: string;
}

/** `xml` with `content` in place of the first note's template name. */
function inTemplateName(xml: string, content: string): string {
  const open = '<NoteTemplateName>';
  const from = xml.indexOf(open) + open.length;
  const to = xml.indexOf('</NoteTemplateName>', from);
  if (from < open.length || to < 0) throw new Error('the journal has no NoteTemplateName');
  return xml.slice(0, from) + content + xml.slice(to);
}

/** `xml` with `construct` right after the first `<HCMContact>` (an element the journal's shape does not take there). */
function inContact(xml: string, construct: string): string {
  const at = xml.indexOf('<HCMContact>') + '<HCMContact>'.length;
  if (at < '<HCMContact>'.length) throw new Error('the journal has no HCMContact');
  return xml.slice(0, at) + construct + xml.slice(at);
}

const times = (s: string, bytes: number): string => s.repeat(Math.max(1, Math.floor(bytes / s.length)));

export function hostileDocuments(journal: string, bytes: number): HostileDocument[] {
  const run = 'x'.repeat(32 * 1024);
  const words = times('Patienten mår bättre, åter om två veckor. ', bytes);
    // The journal's own nesting and 40 more stay within MAX_DEPTH (64).
  const nest = `${'<d>'.repeat(40)}t${'</d>'.repeat(40)}`;
  return [
    { name: 'a comment holding `<` before 32 KiB runs', xml: inContact(journal, `<!--${times(`<${run}`, bytes)}-->`) },
    { name: 'a CDATA section holding `<` before 32 KiB runs', xml: inContact(journal, `<Unknown><![CDATA[${times(`<${run}`, bytes)}]]></Unknown>`) },
    { name: 'a CDATA section without `<`', xml: inContact(journal, `<Unknown><![CDATA[${words}]]></Unknown>`) },
    { name: 'a PI without `<`', xml: inContact(journal, `<?vendor ${words}?>`) },
    { name: 'one huge attribute value', xml: inContact(journal, `<Unknown a="${times('abcdefghij', bytes)}"/>`) },
    { name: 'one huge attribute value of spaced words', xml: inContact(journal, `<Unknown a="${words}"/>`) },
    { name: 'character references in a text', xml: inTemplateName(journal, times('&#x41;', bytes)), templateName: times('A', bytes / 6) },
    { name: 'a long text', xml: inTemplateName(journal, words), templateName: words.trim() },
    { name: 'deep nesting within the cap, repeated', xml: inContact(journal, `<Unknown>${times(nest, bytes)}</Unknown>`) },
    { name: 'whitespace after the root', xml: `${journal}${times(' \n', bytes)}` },
  ];
}
