/**
 * Who a campaign goes to, and what each recipient costs: the lists' contacts, one per phone
 * (the first list wins a duplicate), without the account's opt-outs and, for channels that need
 * a mobile phone, without landlines. Read in pages by phone, so a million recipients never sit
 * in memory at once; the estimate and the start's snapshot walk the same pages.
 */
import type { CampaignContent, Channel } from '@ecoa/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import { type RenderedMessage, renderMessage, usesVariables } from './campaigns.content.ts';
import type { CampaignsRepository, Recipient } from './campaigns.repository.ts';

/** Channels whose recipients must be mobile phones (a landline cannot get an SMS, WhatsApp or RCS). */
export const MOBILE_ONLY: ReadonlySet<Channel> = new Set(['sms_short', 'sms_flash', 'whatsapp', 'rcs']);

const PAGE = 5_000;

export type AudienceTarget = {
  id: string;
  userId: string;
  channel: Channel;
  listIds: string[];
  content: CampaignContent;
};

function valuesOf(r: Recipient): Record<string, string | null> {
  return { ...(r.fields ?? {}), nome: r.name ?? '', telefone: r.phone };
}

/**
 * Calls `onPage` with each page of recipients and their rendered messages. When no text uses a
 * variable every recipient gets the same message, rendered once.
 */
export async function walkAudience(
  repo: CampaignsRepository,
  target: AudienceTarget,
  onPage: (page: { recipient: Recipient; message: RenderedMessage }[]) => Promise<void>,
  tx?: DbOrTx,
): Promise<void> {
  const mobileOnly = MOBILE_ONLY.has(target.channel);
  const shared = usesVariables(target.content)
    ? undefined
    : renderMessage(target.channel, target.content, {}, target.id);
  let after = '';
  for (;;) {
    const page = await repo.audiencePage(target.userId, target.listIds, mobileOnly, after, PAGE, tx);
    if (page.length === 0) return;
    await onPage(
      page.map((recipient) => ({
        recipient,
        message: shared ?? renderMessage(target.channel, target.content, valuesOf(recipient), target.id),
      })),
    );
    after = page[page.length - 1]!.phone;
    if (page.length < PAGE) return;
  }
}
