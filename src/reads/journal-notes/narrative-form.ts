/**
 * The narrative rule backwards: a text as a section's XHTML narrative, and whether that narrative
 * reads back as the same text (docs/upstream-fhir.md#narrative-to-text).
 */
/**
 * Text as XHTML that docs/upstream-fhir.md#narrative-to-text reads back as the same text: `&`, `<`
 * and `>` escaped, a line break `<br/>`, a carriage return a character reference (XML would read a
 * bare one as a line break), every other character as it is, inner spaces and tabs included.
 */
export const xhtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  .replace(/\r/g, '&#13;').replace(/\n/g, '<br/>');

// Characters XML 1.0 cannot hold, even as references (a tab, line feed and carriage return it can).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_IN_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Whether `xhtml(text)` reads back as `text` by docs/upstream-fhir.md#narrative-to-text: the rule
 * trims the ends and XML holds no control characters; with neither, the one text node between the
 * div's two boundaries comes back as written. Decided here rather than by parsing every narrative
 * back (a quarter of a journal's FHIR cost, BENCHMARKS.md part 10); as-fhir.test.ts holds the two
 * equal over generated texts.
 */
export const readsBackAsNarrative = (text: string): boolean => text !== '' && text === text.trim() && !NOT_IN_XML.test(text);
