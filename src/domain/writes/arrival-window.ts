export interface ArrivalWindow {
  beforeMinutes: number;
  afterMinutes: number;
}

/**
 * Whether an appointment starting at `start` (epoch ms) may be marked arrived now: asked by the adapter
 * of the appointment as it reads it just before writing, where the EHR does not check the window itself
 * and the appointment may have been moved since the service checked it (hostile review helper-183, F1).
 */
export type ArrivalCheck = (start: number) => boolean;

/**
 * An arrival at whatever time: for the EHR's own tooling only, never for a person's check-in: the
 * simulator (the legacy EHR it plays checks no window) and the conformance check's sandbox write.
 */
export const AT_ANY_TIME: ArrivalCheck = () => true;

/** Whether `now` lies in the window around an appointment's start (both in epoch ms, inclusive). */
export function withinArrivalWindow(now: number, start: number, window: ArrivalWindow): boolean {
  return now >= start - window.beforeMinutes * 60_000 && !pastArrivalWindow(now, start, window);
}

/** Whether `now` is past the window of an appointment starting at `start` (both in epoch ms). */
export function pastArrivalWindow(now: number, start: number, window: ArrivalWindow): boolean {
  return now > start + window.afterMinutes * 60_000;
}

/** A span of minutes as a person reads it: `2 hours`, `90 minutes`, `1 minute`. */
function minutesInWords(minutes: number): string {
  if (minutes % 60 === 0 && minutes > 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * What an arrival outside the window is told: how close, and what to do instead. `late`: the window has
 * closed, so there is no nearer time; a repeat of a check-in the EHR did not confirm lands here too, and
 * the reception sees whether the first was registered (hostile review helper-211, F1).
 */
export function outsideWindowComment(window: ArrivalWindow, late = false): string {
  const span = `Arrival can only be registered from ${minutesInWords(window.beforeMinutes)} before the start of the appointment to `
    + `${minutesInWords(window.afterMinutes)} after it`;
  return late
    ? `${span}, and that time has passed: ask at the reception, which sees whether an arrival was registered in time.`
    : `${span}: try again nearer the time, or ask at the reception.`;
}
