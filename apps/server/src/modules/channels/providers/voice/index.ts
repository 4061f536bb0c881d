/**
 * The voice provider's public face, for the composition root and `npm run simulators`:
 *
 *   const simulator = config.providers.voice ? null : await startVoiceSimulator();
 *   const voice = createVoiceProvider({
 *     api: config.providers.voice ?? simulator!.account,
 *     publicUrl: config.publicUrl,
 *     mode: simulator ? 'simulator' : 'real',
 *     callsPerSecond: simulator ? simulator.options().callsPerSecond : undefined,
 *   });
 */
export type { DestinationCounters } from './simulator/call-player.ts';
export {
  CALL_OUTCOMES,
  VOICE_SIMULATOR_DEFAULTS,
  type VoiceSimulatorOptions,
  voiceSimulatorOptionsSchema,
} from './simulator/simulator-options.ts';
export { startVoiceSimulator, type VoiceSimulator, type VoiceSimulatorCounters } from './simulator/voice-simulator.ts';
export { createVoiceProvider, VOICE_DEFAULTS, type VoiceProviderOptions } from './voice.provider.ts';
export { VOICE_PROVIDER_NAME, VOICE_WEBHOOK_ERRORS } from './voice.webhooks.ts';
