import type { Channel } from '@ecoa/shared';
import type { RateShare } from '../../../platform/pacing/process-share.ts';
import type { ChannelProvider } from '../provider.ts';

/** Which provider carries each channel (one provider may carry several: SMPP does short and flash). */
export type ProviderRegistry = {
  forChannel(channel: Channel): ChannelProvider;
  all(): readonly ChannelProvider[];
  /** This process's share of the provider's carrier account's rate, when several processes share it. */
  shareOf(providerName: string): RateShare | undefined;
};

export function createProviderRegistry(
  providers: readonly ChannelProvider[],
  /** By provider name (startProviders: the account each one sends through). */
  shares: ReadonlyMap<string, RateShare> = new Map(),
): ProviderRegistry {
  const byChannel = new Map<Channel, ChannelProvider>();
  for (const provider of providers) {
    for (const channel of provider.channels) {
      if (byChannel.has(channel)) throw new Error(`two providers carry ${channel}`);
      byChannel.set(channel, provider);
    }
  }
  return {
    forChannel(channel) {
      const provider = byChannel.get(channel);
      if (!provider) throw new Error(`no provider carries ${channel}`);
      return provider;
    },
    all: () => providers,
    shareOf: (providerName) => shares.get(providerName),
  };
}
