/**
 * The six channels' carriers, from the config: each provider is real when its variables are set,
 * else it runs against its simulator, started here in-process on loopback (a local SMSC, local
 * fake HTTP APIs) — so the real adapter code runs on a fresh machine, in every test and bench.
 */
import { createHash } from 'node:crypto';
import type { Config } from '../../../platform/config/config.ts';
import { parseSmppUrl } from '../../../platform/config/config.ts';
import type { Logger } from '../../../platform/logger.ts';
import type { ProcessShare, RateShare } from '../../../platform/pacing/process-share.ts';
import type { ChannelProvider } from '../provider.ts';
import { createRcsProvider } from './rcs/rcs.provider.ts';
import { type RcsSimulator, startRcsSimulator } from './rcs/rcs.simulator.ts';
import { createProviderRegistry, type ProviderRegistry } from './registry.ts';
import { createSmppProvider, type SmscSimulator, smppProviderOptions, startSmscSimulator } from './smpp/index.ts';
import { createVoiceProvider, startVoiceSimulator, type VoiceSimulator } from './voice/index.ts';
import { createWhatsAppProvider } from './whatsapp/whatsapp.provider.ts';
import { startWhatsAppSimulator, type WhatsAppSimulator } from './whatsapp/whatsapp.simulator.ts';

/** The simulators running in this process (none for a provider that is real). */
export type Simulators = {
  smsc?: SmscSimulator;
  whatsapp?: WhatsAppSimulator;
  rcs?: RcsSimulator;
  voice?: VoiceSimulator;
};

export type StartedProviders = {
  registry: ProviderRegistry;
  /**
   * The carrier accounts this process sends through, one key each (`smpp:<digest of host, port,
   * system id>`…): a carrier's rate is shared with the processes that use the same account, never
   * with one that has a simulator of its own.
   */
  carriers: string[];
  simulators: Simulators;
  close(): Promise<void>;
};

export type SimulatorOverrides = {
  smsc?: Parameters<typeof startSmscSimulator>[0];
  whatsapp?: Parameters<typeof startWhatsAppSimulator>[0];
  rcs?: Parameters<typeof startRcsSimulator>[0];
  voice?: Parameters<typeof startVoiceSimulator>[0];
};

export async function startProviders(options: {
  config: Config;
  logger: Logger;
  /** Tests and benches tune the in-process simulators (outcomes, latency). */
  simulators?: SimulatorOverrides;
  /** This process's share of the carriers' limits, kept by the campaign supervisor (process-share.ts). */
  share?: ProcessShare;
}): Promise<StartedProviders> {
  const { config, logger, share } = options;
  const overrides = options.simulators ?? {};
  const { smpp, whatsapp, rcs, voice } = config.providers;
  const webhook = (path: string) => `${config.publicUrl}/api/webhooks${path}`;
  const simulators: Simulators = {};
  const providers: ChannelProvider[] = [];
  const carriers: string[] = [];
  /** The account's key, and this process's share of its rate. */
  const shares = new Map<string, RateShare>();
  const account = (carrier: string, ...identity: (string | number)[]) => {
    const key = `${carrier}:${createHash('sha256').update(JSON.stringify(identity)).digest('hex').slice(0, 24)}`;
    carriers.push(key);
    const own = share?.forCarrier(key);
    if (own) shares.set(carrier, own);
    return own;
  };
  const close = async () => {
    await Promise.allSettled(providers.map((p) => p.close()));
    await Promise.allSettled(Object.values(simulators).map((s) => s?.close()));
  };
  try {
    simulators.smsc = smpp
      ? undefined
      : await startSmscSimulator({ httpPort: config.smscSimulatorControlPort ?? null, ...overrides.smsc });
    const smppConfig = smpp ?? parseSmppUrl(simulators.smsc!.url);
    providers.push(
      createSmppProvider({
        ...smppProviderOptions(smppConfig, smpp ? 'real' : 'simulator'),
        logger: logger.child({ provider: 'smpp' }),
        share: account('smpp', smppConfig.host, smppConfig.port, smppConfig.systemId),
      }),
    );

    simulators.whatsapp = whatsapp
      ? undefined
      : await startWhatsAppSimulator({ callbackUrl: webhook('/whatsapp/events'), ...overrides.whatsapp });
    const whatsappConfig = whatsapp ?? simulators.whatsapp!.config;
    providers.push(
      createWhatsAppProvider({
        config: whatsappConfig,
        mode: whatsapp ? 'real' : 'simulator',
        share: account('whatsapp', whatsappConfig.apiUrl, whatsappConfig.phoneNumberId),
      }),
    );

    simulators.rcs = rcs
      ? undefined
      : await startRcsSimulator({ callbackUrl: webhook('/rcs/events'), ...overrides.rcs });
    const rcsConfig = rcs ?? simulators.rcs!.config;
    providers.push(
      createRcsProvider({
        config: rcsConfig,
        mode: rcs ? 'real' : 'simulator',
        share: account('rcs', rcsConfig.apiUrl, rcsConfig.agentId),
      }),
    );

    simulators.voice = voice ? undefined : await startVoiceSimulator(overrides.voice);
    const voiceAccount = voice ?? simulators.voice!.account;
    providers.push(
      createVoiceProvider({
        api: voiceAccount,
        publicUrl: config.publicUrl,
        mode: voice ? 'real' : 'simulator',
        callsPerSecond: voice ? voice.callsPerSecond : simulators.voice!.options().callsPerSecond,
        share: account('voice', voiceAccount.apiUrl, voiceAccount.accountSid),
      }),
    );
  } catch (err) {
    await close();
    throw err;
  }
  return { registry: createProviderRegistry(providers, shares), carriers, simulators, close };
}
