/** Entries per page of the patient's access log: 100 unless the caller asks for 1 to 500. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;
