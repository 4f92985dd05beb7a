import type { OperationName } from '../../domain/operations/table.js';
import EXAMPLES from './examples.json' with { type: 'json' };

/**
 * One answer per operation, taken from the embedded EHR's demo data as Tolvan Tolvansson
 * (191212121212, synthetic) sees it, every array cut to its first items. Written by
 * `npm run openapi:examples`; a test fails when the demo data or a layout changed and it was not rerun.
 * Undefined for an operation without one.
 */
export function exampleOf(operation: OperationName): unknown {
  const examples: Partial<Record<string, unknown>> = EXAMPLES;
  return Object.hasOwn(examples, operation) ? examples[operation] : undefined;
}
