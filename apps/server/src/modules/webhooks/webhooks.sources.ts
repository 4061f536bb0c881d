/**
 * What the owners of the events call, built on `publish`: the channels' status batches, replies
 * and URA keys, the campaigns' moves, the links' clicks. The composition root hands these to the
 * owners (which do not know the webhooks module), so each owner's edit is one optional hook.
 */
import { type CampaignCounts, type Channel, WEBHOOK_MESSAGE_STATUSES, type WebhookEventDataByType } from '@ecoa/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { IncomingReply } from '../channels/index.ts';
import type { ClickedLink } from '../links/index.ts';
import type { Publish, PublishItem, PublishMany, WebhookPublisher } from './webhooks.publisher.ts';

type ReportedStatus = (typeof WEBHOOK_MESSAGE_STATUSES)[number];
const REPORTED: ReadonlySet<string> = new Set(WEBHOOK_MESSAGE_STATUSES);

export type StatusStep = {
  messageId: string;
  status: string;
  reason: string | null;
  at: Date;
  userId: string;
  channel: Channel;
  to: string;
  parts: number;
  campaignId: string | null;
};

export function webhookSources(publish: Publish, publishMany: PublishMany, listens: WebhookPublisher['listens']) {
  return {
    /**
     * A batch's message steps → `message.status` (sent, delivered, failed, expired, unknown), in
     * its transaction. Every batch of every campaign passes here: whether the batch's users listen
     * is asked first (a cached answer, usually one user), and nothing is built for those who do not.
     */
    async onStatus(steps: StatusStep[], tx: DbOrTx): Promise<void> {
      const listening = new Map<string, boolean>();
      for (const s of steps)
        if (!listening.has(s.userId)) listening.set(s.userId, await listens(s.userId, 'message.status', tx));
      const items: PublishItem<'message.status'>[] = [];
      for (const s of steps) {
        if (!REPORTED.has(s.status) || !listening.get(s.userId)) continue;
        items.push({
          userId: s.userId,
          type: 'message.status',
          data: {
            messageId: s.messageId,
            channel: s.channel,
            to: s.to,
            status: s.status as ReportedStatus,
            reason: s.reason,
            parts: s.parts,
            campaignId: s.campaignId,
            at: s.at.toISOString(),
          },
        });
      }
      await publishMany(items as PublishItem[], tx);
    },

    /** A batch of clicks on tracked or rotating links → `link.click`, in the transaction that writes them. */
    async onLinkClicks(clicks: ClickedLink[], tx: DbOrTx): Promise<void> {
      const items: PublishItem<'link.click'>[] = clicks.map(({ userId, at, ...click }) => ({
        userId,
        type: 'link.click',
        data: { ...click, at: at.toISOString() },
      }));
      await publishMany(items as PublishItem[], tx);
    },

    /** An incoming message → `message.reply`, and `message.opt_out` when it asked to stop. */
    async onReply(reply: IncomingReply): Promise<void> {
      const receivedAt = reply.receivedAt.toISOString();
      await publish(reply.userId, 'message.reply', {
        replyId: reply.replyId,
        from: reply.from,
        channel: reply.inReplyTo?.channel ?? null,
        text: reply.text,
        inReplyTo: reply.inReplyTo
          ? { messageId: reply.inReplyTo.messageId, campaignId: reply.inReplyTo.campaignId }
          : null,
        receivedAt,
      });
      if (reply.optedOut) {
        await publish(reply.userId, 'message.opt_out', {
          phone: reply.from,
          source: 'reply',
          replyId: reply.replyId,
          at: receivedAt,
        });
      }
    },

    /** A key pressed in an URA call → `ura.digits`. */
    async onDigits(press: WebhookEventDataByType['ura.digits'] & { userId: string }): Promise<void> {
      const { userId, ...data } = press;
      await publish(userId, 'ura.digits', data);
    },

    /** A campaign's move → `campaign.status`, in the move's transaction. */
    async onCampaignStatus(
      campaign: { id: string; userId: string; name: string },
      status: 'started' | 'paused' | 'completed' | 'canceled',
      counts: CampaignCounts,
      tx: DbOrTx,
    ): Promise<void> {
      const pending = counts.queued + counts.submitting;
      await publish(
        campaign.userId,
        'campaign.status',
        {
          campaignId: campaign.id,
          name: campaign.name,
          status,
          counts: {
            total: Object.values(counts).reduce((a, b) => a + b, 0),
            sent: counts.sent,
            delivered: counts.delivered,
            failed: counts.failed + counts.expired,
            pending,
          },
          at: new Date().toISOString(),
        },
        tx,
      );
    },
  };
}
