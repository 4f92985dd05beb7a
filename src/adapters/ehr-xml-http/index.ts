export { XmlHttpEhr } from './xml-http-ehr.js';
export type { XmlHttpEhrOptions, XmlHttpEhrEvent } from './options.js';
