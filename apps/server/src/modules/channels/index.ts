/**
 * The channels module's public surface: the module as the composition root builds it, its service,
 * the carrier interface campaigns hand messages to (the provider, its content and events, the
 * registry of the six channels), the batch outcomes and in-flight submits the dispatcher shares
 * with it, the message counts metrics read, and the replies the inbox (modules/replies) reads.
 */
export type { SubmittedBatchResult } from './channels.batch.ts';
export { type ChannelsModule, createChannelsModule } from './channels.module.ts';
export { type ChannelsService, createChannelsService, type IncomingReply } from './channels.service.ts';
export type { InflightBatch } from './inflight-submits.ts';
export type { MessageCount, MessageCounts } from './message-counts.ts';
export type { CampaignTally, MessagesOnDay, MessageTallies, TimelinePoint } from './message-tallies.ts';
export type { MessageListFilter, MessagesList } from './messages-list.ts';
export {
  type ChannelProvider,
  type OutboundContent,
  ProviderError,
  type StatusEvent,
  SUBMIT_STOPPED,
  type VoicePrompt,
} from './provider.ts';
export type { ProviderRegistry } from './providers/registry.ts';
export {
  createRepliesRepository,
  type RepliesFilterRows,
  type RepliesRepository,
  type ReplyRow,
} from './replies.repository.ts';
