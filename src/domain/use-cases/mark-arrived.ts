import type { Clock } from '../../ports/clock.port.js';
import type { WriteCoordinator } from '../../ports/write-coordinator.port.js';
import type { PatientAccess } from '../access/patient-access.js';
import type { ResultRecord } from '../records/index.js';
import { readerOf } from './read-sources.js';
import { outsideWindowComment, pastArrivalWindow, withinArrivalWindow, type ArrivalWindow } from '../writes/arrival-window.js';
import { fromEhrResult, resultRecord } from '../writes/write-outcomes.js';

/**
 * Marks one of the patient's booked appointments `arrived` (the check-in of a kiosk or an app),
 * through the request's view of the EHR the access was decided through (`access.ehr`).
 */
export class MarkArrived {
  constructor(
    private readonly clock: Clock,
    private readonly window: ArrivalWindow,
    private readonly coordinator: WriteCoordinator,
  ) {}

  async execute(access: PatientAccess, contactId: string, abandoned: AbortSignal): Promise<ResultRecord> {
    const results = await readerOf(access.ehr.reads, 'getAppointments')(access.patientId, {});
    const booking = results.flatMap((r) => r.Booking ?? []).find((b) => b.ContactId === contactId);
    const start = booking?.TypedStartDateTime === undefined ? Number.NaN : Date.parse(booking.TypedStartDateTime);
    // The EHR does not check the window (docs/upstream-ehr.md#2-requests-and-answers), so the service must.
    if (Number.isNaN(start)) return resultRecord('CONTACT_NOT_FOUND');
    if (!this.withinWindow(start)) return this.outsideWindow(start);
    // Checked again at the turn: a check-in may wait behind an identical one while its window closes.
    // Keyed by the booking alone, whichever of the patient's numbers it was asked under (helper-136, F3).
    const written = await this.coordinator.exclusive(`arrival/${contactId}`, abandoned,
      async () => (this.withinWindow(start) ? access.ehr.registerArrival(access.patientId, contactId, (at) => this.withinWindow(at)) : undefined));
    // The adapter's own read may find the appointment moved out of the window since the list was read.
    const outside = written === undefined || (written.resultCode === 'ERROR' && written.reasonCode === 'OUTSIDE_ARRIVAL_WINDOW');
    return outside ? this.outsideWindow(start) : fromEhrResult(written);
  }

  private withinWindow(start: number): boolean {
    return withinArrivalWindow(this.clock.now(), start, this.window);
  }

  /** The refusal, in words for before the window or after it, by the start the bookings read. */
  private outsideWindow(start: number): ResultRecord {
    return { ...resultRecord('OUTSIDE_ARRIVAL_WINDOW'), Comment: outsideWindowComment(this.window, pastArrivalWindow(this.clock.now(), start, this.window)) };
  }
}
