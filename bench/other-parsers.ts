/**
 * Two third-party XML parsers on the same documents as the mapper (issue 56 item 3): how fast a
 * good parser reads these bytes, for `bench/mapper.ts` to set our reader beside. Neither maps
 * anything: saxes reports every tag and text to handlers that do nothing with them (the events
 * alone), fast-xml-parser builds its tree (as the service used it before the reader, and as the
 * tests' oracle still does). Both read the document as one string, as `mapDocument` does here.
 */
import { XMLParser } from 'fast-xml-parser';
import { SaxesParser } from 'saxes';

const ignore = (): void => undefined;

/** saxes, a conforming streaming parser: every event to a handler, nothing kept. */
export function saxesRead(xml: string): void {
  const parser = new SaxesParser({ xmlns: false });
  parser.on('opentag', ignore);
  parser.on('closetag', ignore);
  parser.on('text', ignore);
  parser.on('cdata', ignore);
  parser.write(xml).close();
}

/** fast-xml-parser with the options the tests' oracle uses (reference/xml-parser.ts), no array paths. */
const fxp = new XMLParser({
  ignoreAttributes: false,
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  htmlEntities: false,
  processEntities: true,
  jPath: false,
});

export function fastXmlParserRead(xml: string): unknown {
  return fxp.parse(xml);
}
