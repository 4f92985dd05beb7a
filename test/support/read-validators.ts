/**
 * Every read of patient records with the ajv validator of its answer: patient v2, care contacts,
 * attention signals, lab results and diagnoses against the vendor's layouts (test/fixtures/vendor-layouts/),
 * closed, so a member the vendor does not name fails; journal notes against the vendor's journal layout,
 * open (the spec's spelling stands where it names a member); the reads the vendor publishes no tree
 * for against the answer's own schema, the spec's.
 */
import { Ajv } from 'ajv';
import { Type, type TSchema } from 'typebox';
import { OPERATIONS, READ_NAMES } from '../../src/domain/operations/table.js';
import { routeByOperation, urlOf } from '../security/support/routes.js';
import { vendorAnswerSchema } from './vendor-layouts.js';

const ajv = new Ajv({ allErrors: true, strict: false });
export const vendor = (file: string, closed: boolean) => ajv.compile(vendorAnswerSchema(file, { closed }));
const own = (item: TSchema) => ajv.compile(JSON.parse(JSON.stringify(Type.Array(item))) as object);

export const READ_VALIDATORS = READ_NAMES.map((read) => {
  const { item, vendorLayout } = OPERATIONS[read].answer;
  const url = urlOf(routeByOperation(read));
  return { read, url, validate: vendorLayout === undefined ? own(item) : vendor(`${vendorLayout}.txt`, vendorLayout !== 'journal-notes') };
});
