export { MalformedDocumentError } from './malformed-document-error.js';
export { mapDocument, mapDocumentInSlices, SLICE_MS, type MapOptions } from './map-document.js';
export { mapRelationships } from './relationships.js';
export { mapResultRecord } from './result-record.js';
export { mapFault } from './fault.js';
export { MAX_DEPTH } from './xml-text.js';
