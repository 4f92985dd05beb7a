export interface ArrivalWindow {
  beforeMinutes: number;
  afterMinutes: number;
}

/** Whether `now` lies in the window around an appointment's start (both in epoch ms, inclusive). */
export function withinArrivalWindow(now: number, start: number, window: ArrivalWindow): boolean {
  return now >= start - window.beforeMinutes * 60_000 && now <= start + window.afterMinutes * 60_000;
}
