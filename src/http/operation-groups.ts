import { OPERATION_NAMES, OPERATIONS, type OperationName } from '../domain/operations/table.js';
import type { ErrorShape } from './types.js';

/** `a, b and c`, as a person reads a list. */
const spoken = (names: readonly string[]): string =>
  (names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`);

/** The groups (documentation tags) of `operations`, lower-cased, in the table's order, as a list a person reads. */
export const groupsOf = (operations: readonly OperationName[]): string =>
  spoken([...new Set(operations.map((name) => OPERATIONS[name].docs.tag.name.toLowerCase()))]);

/** The groups of the operations that answer errors in `shape`: derived, so a new operation is named by itself. */
export const groupsAnswering = (shape: ErrorShape): string => groupsOf(OPERATION_NAMES.filter((name) => OPERATIONS[name].errorShape === shape));
