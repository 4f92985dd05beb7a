/** Sentences several operations' documentation shares. */
export const WHO = 'The answer is about the logged-in person, or with the `patient` header about a patient they act for '
  + '(as guardian, with power of attorney or as partner); a client token (kiosk, integration) must name the patient in that header.';
export const INTERVAL = 'Limit it to an interval with `fromDateTime` and `toDateTime` (both optional and inclusive).';
export const EMPTY = 'An empty array means there is nothing to show in that interval.';
export const SHAPE_2 = 'Errors come in the `{error, path, status, timestamp}` shape.';
