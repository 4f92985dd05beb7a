import { OPERATIONS, type OperationName } from '../../domain/operations/table.js';
import WRITE_EXAMPLES from './write-examples.json' with { type: 'json' };

/**
 * One answer per operation, taken from the embedded EHR's demo data as Tolvan Tolvansson
 * (191212121212, synthetic) sees it, every array cut to its first items: a read's from its folder
 * (its operation entry's `answer.example`), a write's from write-examples.json. Written by
 * `npm run openapi:examples`; a test fails when the demo data or a layout changed and it was not rerun.
 * Undefined for an operation without one.
 */
export function exampleOf(operation: OperationName): unknown {
  const entry = OPERATIONS[operation];
  if (entry.handler === 'records') return entry.answer.example;
  const writes: Partial<Record<string, unknown>> = WRITE_EXAMPLES;
  return Object.hasOwn(writes, operation) ? writes[operation] : undefined;
}
