/** SMS short and flash over SMPP 3.4: the adapter and its simulated SMSC (for the composition root and `npm run simulators`). */

export {
  SMSC_SIMULATOR_DEFAULTS,
  type SmscSimulator,
  type SmscSimulatorOptions,
  startSmscSimulator,
} from './simulator/smsc-simulator.ts';
export { createSmppProvider, SmppProvider, type SmppProviderOptions, smppProviderOptions } from './smpp.provider.ts';
