/**
 * The EHR sent something this service cannot trust (docs/contract.md#errors: 502). The message is a short
 * fixed reason naming at most an element: never document text, which may hold personal data.
 */
export class MalformedDocumentError extends Error {
  constructor(reason: string) {
    super(`malformed EHR document: ${reason}`);
    this.name = 'MalformedDocumentError';
  }
}

export const malformed = (reason: string): MalformedDocumentError => new MalformedDocumentError(reason);

/** The one reason for anything XML 1.0 calls not well-formed: the reader says no more about a document it refuses. */
export const notWellFormed = (): never => {
  throw malformed('not well-formed XML');
};
