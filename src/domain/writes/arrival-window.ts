export interface ArrivalWindow {
  beforeMinutes: number;
  afterMinutes: number;
}

/** Whether `now` lies in the window around an appointment's start (both in epoch ms, inclusive). */
export function withinArrivalWindow(now: number, start: number, window: ArrivalWindow): boolean {
  return now >= start - window.beforeMinutes * 60_000 && now <= start + window.afterMinutes * 60_000;
}

/** A span of minutes as a person reads it: `2 hours`, `90 minutes`, `1 minute`. */
function minutesInWords(minutes: number): string {
  if (minutes % 60 === 0 && minutes > 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/** What an arrival outside the window is told: how close, and what to do instead. */
export function outsideWindowComment(window: ArrivalWindow): string {
  return `Arrival can only be registered from ${minutesInWords(window.beforeMinutes)} before the start of the appointment to `
    + `${minutesInWords(window.afterMinutes)} after it: try again nearer the time, or ask at the reception.`;
}
