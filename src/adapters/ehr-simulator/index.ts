export { startEhrSimulator, type EhrSimulator, type EhrSimulatorOptions } from './simulator.js';
export type { FaultControl, FaultScope, Fault } from './fault-control.js';
