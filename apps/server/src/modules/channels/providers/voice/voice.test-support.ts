/**
 * For tests: the real voice adapter, the real simulator as its carrier, and a real webhook
 * server between them (webhook-app.test-support.ts). Events the adapter reports are collected in order.
 */
import { beforeEach } from 'vitest';
import { openBeforeAll } from '../../../../../test/hooks.test-support.ts';
import type { ChannelProvider, OutboundMessage, ProviderEvent, StatusEvent, VoicePrompt } from '../../provider.ts';
import type { VoiceSimulatorOptions } from './simulator/simulator-options.ts';
import { startVoiceSimulator, type VoiceSimulator } from './simulator/voice-simulator.ts';
import { createVoiceProvider, type VoiceProviderOptions } from './voice.provider.ts';
import { startWebhookTestApp, type WebhookTestApp } from './webhook-app.test-support.ts';

export type VoiceRig = {
  simulator: VoiceSimulator;
  app: WebhookTestApp;
  provider: ChannelProvider;
  events: ProviderEvent[];
  /** The status events of one call, in the order they arrived. */
  eventsOf(callSid: string): StatusEvent[];
  close(): Promise<void>;
};

/** Instant calls, no limit to speak of, every call answered and menus answered with 1. */
export const FAST_CALLS: Partial<VoiceSimulatorOptions> = {
  apiLatencyMs: 0,
  ringMs: 0,
  callMs: 0,
  callsPerSecond: 10_000,
  outcomes: { answered: 1 },
  keys: { '1': 1 },
};

export async function startVoiceRig(
  simulatorOptions: Partial<VoiceSimulatorOptions> = {},
  providerOptions: Partial<VoiceProviderOptions> = {},
): Promise<VoiceRig> {
  const simulator = await startVoiceSimulator({ ...FAST_CALLS, ...simulatorOptions });
  const events: ProviderEvent[] = [];
  let provider!: ChannelProvider;
  const app = await startWebhookTestApp((publicUrl) => {
    provider = createVoiceProvider({
      api: simulator.account,
      publicUrl,
      mode: 'simulator',
      callsPerSecond: 10_000,
      ...providerOptions,
    });
    return provider;
  });
  provider.onEvent(async (event) => {
    events.push(event);
  });
  return {
    simulator,
    app,
    provider,
    events,
    eventsOf: (callSid) =>
      events.filter((e): e is StatusEvent => e.type === 'status' && e.providerMessageId === callSid),
    async close() {
      await provider.close();
      await simulator.close();
      await app.close();
    },
  };
}

let sequence = 0;
/** A distinct Brazilian mobile number per call, so each test reads its own counters. */
export function uniquePhone(): string {
  sequence++;
  return `+55119${String(70_000_000 + (process.pid % 1000) * 10_000 + sequence).padStart(8, '0')}`;
}

export function torpedo(to: string, prompt: VoicePrompt, id = `msg-${to.slice(-6)}`): OutboundMessage {
  return { id, channel: 'voice_torpedo', to, content: { kind: 'voice', prompt } };
}

export function ura(to: string, prompt: VoicePrompt, options: string[], id = `ura-${to.slice(-6)}`): OutboundMessage {
  return { id, channel: 'ura', to, content: { kind: 'ura', prompt, options } };
}

/**
 * One rig for a file's tests, its recorded events cleared before each test, and the account's
 * auth token (what signs the carrier's callbacks):
 *
 *   openVoiceRig((opened) => ({ rig, token } = opened));
 */
export function openVoiceRig(assign: (opened: { rig: VoiceRig; token: string }) => void): void {
  let rig: VoiceRig | undefined;
  openBeforeAll(startVoiceRig, (opened) => {
    rig = opened;
    assign({ rig, token: rig.simulator.account.authToken });
  });
  beforeEach(() => {
    if (rig) rig.events.length = 0;
  });
}

/** POSTs a carrier callback form to `url`, with `signature` as X-Twilio-Signature (null: none). */
export async function postCallback(
  url: string,
  form: Record<string, string> | Array<[string, string]>,
  signature: string | null,
): Promise<{ status: number; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(signature === null ? {} : { 'x-twilio-signature': signature }),
    },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, text: await response.text() };
}
