export { XmlHttpEhr } from './xml-http-ehr.js';
export type { XmlHttpEhrOptions, XmlHttpEhrEvent } from './options.js';
export { CircuitBreaker, CircuitOpenError, type BreakerSettings, type BreakerChange } from './circuit-breaker.js';
