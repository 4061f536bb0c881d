/**
 * Who a campaign goes to, and what each recipient costs: the lists' contacts, one per phone
 * (the first list wins a duplicate), without the account's opt-outs and, for channels that need
 * a mobile phone, without landlines. Read in pages by phone, so a million recipients never sit
 * in memory at once; the estimate and the start's snapshot walk the same pages.
 */
import { type CampaignContent, type Channel, TRACKED_LINK_CODE_LENGTH, trackedLinkUrl } from '@ecoa/shared';
import type { DbOrTx } from '../../platform/db/client.ts';
import { newShortCode, type RenderedMessage, renderMessage, usesVariables } from './campaigns.content.ts';
import type { CampaignsRepository, Recipient, RecipientRow } from './campaigns.repository.ts';

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

/**
 * The start's snapshot, in the caller's transaction: one `queued` message per recipient with its
 * rendered content and parts. The same message for everyone is written by one statement; a text
 * with variables is rendered here page by page.
 */
export async function snapshotAudience(
  repo: CampaignsRepository,
  target: AudienceTarget,
  provider: string,
  now: Date,
  publicUrl: string,
  tx: DbOrTx,
): Promise<{ total: number; parts: number }> {
  if (!usesVariables(target.content)) {
    const message = renderMessage(target.channel, target.content, {}, target.id);
    const total = await repo.insertSharedAudience(target, provider, MOBILE_ONLY.has(target.channel), message, now, tx);
    return { total, parts: total * message.parts };
  }
  let total = 0;
  let parts = 0;
  await walkAudience(
    repo,
    target,
    async (page) => {
      const rows: RecipientRow[] = page.map(({ recipient, message, shortCode }) => ({
        phone: recipient.phone,
        name: recipient.name,
        parts: message.parts,
        content: message.content,
        shortCode,
      }));
      await repo.insertRecipients(target, provider, rows, now, tx);
      total += rows.length;
      for (const r of rows) parts += r.parts;
    },
    { publicUrl, codes: true },
    tx,
  );
  return { total, parts };
}

function valuesOf(r: Recipient): Record<string, string | null> {
  return { ...(r.fields ?? {}), nome: r.name ?? '', telefone: r.phone };
}

/**
 * Calls `onPage` with each page of recipients and their rendered messages. When no text uses a
 * variable every recipient gets the same message, rendered once. With a tracked link, `{link}`
 * is each recipient's own address (`codes`), or one of the same length (an estimate's parts).
 */
export async function walkAudience(
  repo: CampaignsRepository,
  target: AudienceTarget,
  onPage: (page: { recipient: Recipient; message: RenderedMessage; shortCode: string | null }[]) => Promise<void>,
  links: { publicUrl: string; codes: boolean } = { publicUrl: '', codes: false },
  tx?: DbOrTx,
): Promise<void> {
  const tracked = target.content.trackedLink !== undefined;
  const codeFor = () => (tracked ? (links.codes ? newShortCode() : 'x'.repeat(TRACKED_LINK_CODE_LENGTH)) : null);
  const mobileOnly = MOBILE_ONLY.has(target.channel);
  const shared = usesVariables(target.content)
    ? undefined
    : renderMessage(target.channel, target.content, {}, target.id);
  let after = '';
  for (;;) {
    const page = await repo.audiencePage(target.userId, target.listIds, mobileOnly, after, PAGE, tx);
    if (page.length === 0) return;
    await onPage(
      page.map((recipient) => {
        const shortCode = codeFor();
        const values = shortCode
          ? { ...valuesOf(recipient), link: trackedLinkUrl(links.publicUrl, shortCode) }
          : undefined;
        return {
          recipient,
          message: shared ?? renderMessage(target.channel, target.content, values ?? valuesOf(recipient), target.id),
          shortCode,
        };
      }),
    );
    after = page[page.length - 1]!.phone;
    if (page.length < PAGE) return;
  }
}
