import { isContentType, type MediaType } from '../ehr-http/exchange.js';

/** Only UTF-8 XML is read (docs/upstream-ehr.md#2-requests-and-answers); an HTML error page above all is refused unread. */
export const XML: MediaType = {
  accept: 'application/xml',
  body: 'application/xml; charset=utf-8',
  readable: (contentType) => isContentType(contentType, ['application/xml', 'text/xml']),
};
