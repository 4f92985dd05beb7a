/** Shapes shared by several documents. */
import { NUMBER, STR } from './leaves.js';
import { obj, req } from './shape.js';

/** `XSDVersion @version:num !`: identifies the message layout. */
export const XSD_VERSION = obj({ '@version': req(NUMBER) });

/** `PatientGivenName @qualifier @value`; qualifier CL marks the name in use. */
export const GIVEN_NAME = obj({ '@qualifier': STR, '@value': STR });
