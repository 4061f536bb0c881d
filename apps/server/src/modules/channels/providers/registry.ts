import type { Channel } from '@ecoa/shared';
import type { ChannelProvider } from '../provider.ts';

/** Which provider carries each channel (one provider may carry several: SMPP does short and flash). */
export type ProviderRegistry = {
  forChannel(channel: Channel): ChannelProvider;
  all(): readonly ChannelProvider[];
};

export function createProviderRegistry(providers: readonly ChannelProvider[]): ProviderRegistry {
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
  };
}
