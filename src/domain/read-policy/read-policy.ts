/**
 * The rules one read of patient records follows on its way to the caller, whatever EHR it came
 * from: which time it is filtered and sorted on, where the answered document marks a protected
 * identity, what masking removes for a client token, and what the release policy may withhold.
 * Each read's policy is a member of its entry in the operation table (src/domain/operations); the
 * read use case (src/domain/use-cases/read-patient-data.ts) applies it.
 */
import type { ActiveRules } from '../release/active-rules.js';

/** Inclusive bounds as epoch milliseconds; unbounded sides are infinite. */
export interface Bounds {
  from: number;
  to: number;
}

export interface Released<T> {
  records: T;
  /** How many items were left out; never which. */
  withheld: number;
}

export interface ReadPolicy<T> {
  /** The items (and their extracts) within `bounds`, oldest first; pure, and applying it twice equals once. */
  select(items: T[], bounds: Bounds, zone: string): T[];
  /** True when any part of the answered document marks the patient's identity protected (when in doubt, protect). */
  marksProtectedIdentity(items: readonly T[]): boolean;
  /** The items less the patient's addresses, phone numbers and e-mail, for a client token reading a protected identity. */
  withoutContactDetails(items: T[]): T[];
  /**
   * What the region's release policy withholds (`everything`: the guardian age limit took the whole
   * read). Absent: this read shows no journal content and nothing of it is ever withheld.
   */
  release?(items: T[], rules: ActiveRules, everything: boolean): Released<T[]>;
}

/** Nothing of the patient's whereabouts in this read: masking leaves it as it is. */
export const noContactDetails = <T>(items: T[]): T[] => items.slice();

/** This document never names the patient with a protection flag. */
export const carriesNoProtectionMark = (): boolean => false;
