export { startEhrSimulator, type EhrSimulator, type EhrSimulatorOptions, type EhrSimulatorTls } from './simulator.js';
export type { FaultControl, FaultScope, Fault } from './fault-control.js';
