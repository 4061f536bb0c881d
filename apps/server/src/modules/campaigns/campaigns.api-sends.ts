/**
 * The sending API on the campaign engine (ADR 020): a request (one message, or a batch of up to
 * 10,000) becomes a campaign row of kind `api` with its messages snapshotted `queued`, its
 * credits reserved and its dispatch queued in ONE transaction, exactly as a campaign's start;
 * from there the dispatcher, the settle, the supervisor (schedules, crashes, the window) and the
 * reports treat it like any campaign. The content rules and rendering are the campaigns' own
 * (`campaigns.content.ts`), the schedule rule too (`campaigns.schedule.ts`).
 */
import { randomUUID } from 'node:crypto';
import {
  type ApiChannel,
  type CampaignContent,
  CHANNEL_CREDIT_TYPE,
  DEFAULT_SENDING_WINDOW,
  normalizeBrazilianPhone,
  type SendingWindow,
} from '@ecoa/shared';
import type { Tx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { OptOutsService } from '../opt-outs/index.ts';
import type { ApiMessageRow, ApiMessagesRepository } from './campaigns.api-messages.repository.ts';
import { MOBILE_ONLY } from './campaigns.audience.ts';
import { contentProblems, type RenderedMessage, renderMessage, usesVariables } from './campaigns.content.ts';
import { dispatchQueue } from './campaigns.jobs.ts';
import { type CampaignLifecycle, reserveForCampaign } from './campaigns.lifecycle.ts';
import { scheduleToStore } from './campaigns.schedule.ts';
import type { CampaignsServiceDeps } from './campaigns.service-deps.ts';

/** What every message of a request says (the API's body without its recipients). */
export type ApiContent = {
  channel: ApiChannel;
  text?: string;
  template?: { name: string; language: string; params: string[] };
  audioId?: string;
  tts?: string;
  rcs?: { text?: string; card?: CampaignContent['card']; suggestions?: CampaignContent['suggestions'] };
  scheduledAt?: string;
  window?: SendingWindow;
};

/** One recipient of a request. */
export type ApiRecipient = { to: string; variables?: Record<string, string>; externalId?: string };

export type ApiAccepted = { index: number; id: string; to: string; externalId: string | null; parts: number };
/** Why one recipient of a request is refused (the rest go on). */
export type ApiRejectionCode = 'INVALID_PHONE' | 'MOBILE_REQUIRED' | 'DUPLICATE_RECIPIENT' | 'RECIPIENT_OPTED_OUT';
export type ApiRejected = { index: number; code: ApiRejectionCode; message: string };

/** A request checked outside the transaction: who gets what, who is refused and why. */
export type PreparedApiSend = {
  userId: string;
  channel: ApiChannel;
  window: SendingWindow;
  content: CampaignContent;
  scheduledAt: Date | null;
  rows: ApiMessageRow[];
  accepted: ApiAccepted[];
  rejected: ApiRejected[];
  parts: number;
};

type ApiSendsDeps = CampaignsServiceDeps & {
  apiRepo: ApiMessagesRepository;
  optOuts: Pick<OptOutsService, 'optedOut'>;
  lifecycle: Pick<CampaignLifecycle, 'queueDispatch' | 'releaseParts' | 'finishIfDone'>;
};

/** A batch request's dispatch loops (as a campaign's); a single message needs one. */
const SINGLE_MESSAGE_LOOPS = 1;

/** The API's fields as a campaign's content (the same checks and rendering apply). */
function toCampaignContent(input: ApiContent): CampaignContent {
  switch (input.channel) {
    case 'sms_short':
    case 'sms_flash':
      return { ...(input.text !== undefined ? { text: input.text } : {}) };
    case 'voice_torpedo':
      return { ...(input.audioId ? { audioId: input.audioId } : {}), ...(input.tts ? { tts: input.tts } : {}) };
    case 'whatsapp':
      return input.template ? { template: input.template } : {};
    case 'rcs': {
      const rcs = input.rcs ?? (input.text ? { text: input.text } : {});
      return {
        ...(rcs.text ? { text: rcs.text } : {}),
        ...(rcs.card ? { card: rcs.card } : {}),
        ...(rcs.suggestions ? { suggestions: rcs.suggestions } : {}),
      };
    }
  }
}

export function createApiSends(deps: ApiSendsDeps) {
  const { apiRepo, repo, clock } = deps;

  return {
    /**
     * Checks a request before its transaction: the content (400 with the problem's code, like a
     * campaign's start), the schedule (never past), the audio; then each recipient: a valid
     * number (mobile where the channel needs one), not opted out, not twice in the request.
     * Renders each accepted message (variables, parts) and gives it its id.
     */
    async prepare(userId: string, input: ApiContent, recipients: ApiRecipient[]): Promise<PreparedApiSend> {
      const content = toCampaignContent(input);
      const problems = contentProblems(input.channel, content);
      if (problems.length > 0) throw new AppError('CAMPAIGN_PROBLEM', { problems }, { problem: problems[0]!.code });
      if (content.audioId && !(await deps.audioExists(userId, content.audioId)))
        throw new AppError('CAMPAIGN_PROBLEM', undefined, { problem: 'AUDIO_NOT_FOUND' });
      const scheduledAt = scheduleToStore(input.scheduledAt, clock.now());

      const rejected: ApiRejected[] = [];
      const reject = (index: number, code: ApiRejectionCode) =>
        rejected.push({ index, code, message: new AppError(code).message });
      const seen = new Set<string>();
      const valid: { index: number; phone: string; r: ApiRecipient }[] = [];
      for (const [index, r] of recipients.entries()) {
        const phone = normalizeBrazilianPhone(r.to);
        if (!phone.ok) reject(index, 'INVALID_PHONE');
        else if (MOBILE_ONLY.has(input.channel) && phone.kind !== 'mobile') reject(index, 'MOBILE_REQUIRED');
        else if (seen.has(phone.e164)) reject(index, 'DUPLICATE_RECIPIENT');
        else {
          seen.add(phone.e164);
          valid.push({ index, phone: phone.e164, r });
        }
      }
      const optedOut = valid.length ? await deps.optOuts.optedOut(userId, [...seen]) : new Set<string>();

      // Without variables every message is the same: rendered once (and written once).
      const once = usesVariables(content) ? undefined : renderMessage(input.channel, content, {}, 'api');
      const render = (phone: string, variables?: Record<string, string>): RenderedMessage => {
        if (once) return once;
        const values: Record<string, string> = { telefone: phone };
        for (const [k, v] of Object.entries(variables ?? {})) values[k.toLowerCase()] = v;
        return renderMessage(input.channel, content, values, 'api');
      };

      const rows: ApiMessageRow[] = [];
      const accepted: ApiAccepted[] = [];
      let parts = 0;
      for (const { index, phone, r } of valid) {
        if (optedOut.has(phone)) {
          reject(index, 'RECIPIENT_OPTED_OUT');
          continue;
        }
        const message = render(phone, r.variables);
        const id = randomUUID();
        rows.push({ id, phone, parts: message.parts, content: message.content, externalId: r.externalId ?? null });
        accepted.push({ index, id, to: phone, externalId: r.externalId ?? null, parts: message.parts });
        parts += message.parts;
      }
      rejected.sort((a, b) => a.index - b.index);
      const window = input.window ?? DEFAULT_SENDING_WINDOW;
      return { userId, channel: input.channel, window, content, scheduledAt, rows, accepted, rejected, parts };
    },

    /**
     * Queues a prepared request in the caller's transaction: its batch row (RUNNING, or SCHEDULED
     * for a future `scheduledAt`), its messages, the reservation of their credits (refused with
     * the exact shortfall: nothing queued), its dispatch jobs. Call `wake()` once it committed.
     */
    async queue(prepared: PreparedApiSend, tx: Tx): Promise<{ batchId: string }> {
      const { userId, channel } = prepared;
      const now = clock.now();
      const scheduled = prepared.scheduledAt !== null && prepared.scheduledAt > now;
      const provider = deps.providers.forChannel(channel).name;
      const batch = await repo.insert(
        {
          userId,
          kind: 'api',
          name: `API ${now.toISOString()}`,
          channel,
          status: scheduled ? 'SCHEDULED' : 'RUNNING',
          listIds: [],
          content: prepared.content,
          window: prepared.window,
          creditType: CHANNEL_CREDIT_TYPE[channel],
          total: prepared.rows.length,
          creditsReserved: prepared.parts,
          scheduledAt: prepared.scheduledAt,
          startedAt: scheduled ? null : now,
          createdAt: now,
          updatedAt: now,
        },
        tx,
      );
      // Its audio locked as a campaign's start locks it: deleted meanwhile, refused; deleted after, the delete is.
      if (prepared.content.audioId && !(await deps.lockAudio(userId, prepared.content.audioId, tx)))
        throw new AppError('CAMPAIGN_PROBLEM', undefined, { problem: 'AUDIO_NOT_FOUND' });
      await apiRepo.insert(batch, provider, prepared.rows, now, tx);
      await reserveForCampaign(deps.ledger, {
        userId,
        type: batch.creditType,
        amount: prepared.parts,
        campaignId: batch.id,
        tx,
      });
      if (!scheduled) {
        const loops = prepared.rows.length === 1 ? SINGLE_MESSAGE_LOOPS : undefined;
        await deps.lifecycle.queueDispatch(batch.id, { loops, tx });
      }
      return { batchId: batch.id };
    },

    /** The dispatch jobs queued by a committed request start now rather than at the next poll. */
    wake: () => deps.jobs.wake(dispatchQueue),

    /**
     * Cancels one API message not handed to the carrier yet (`queued`, also in a scheduled
     * batch): `canceled` and its credits released through the ledger, in one transaction with
     * the batch row locked first (the order every settle keeps). 409 once it left `queued`.
     */
    async cancel(userId: string, messageId: string): Promise<void> {
      const now = clock.now();
      const batchId = await deps.db.transaction(async (tx) => {
        const id = await apiRepo.batchOf(userId, messageId, tx);
        if (!id) throw new AppError('MESSAGE_NOT_FOUND');
        const batch = await repo.lock(userId, id, tx);
        if (!batch) throw new AppError('MESSAGE_NOT_FOUND');
        const parts = await apiRepo.cancelQueued(messageId, now, tx);
        if (parts === null) throw new AppError('MESSAGE_NOT_CANCELABLE');
        await deps.lifecycle.releaseParts(batch, parts, tx);
        return id;
      });
      // The batch's last message: it ends now rather than at the supervisor's next look.
      await deps.lifecycle.finishIfDone(batchId);
    },
  };
}

export type ApiSends = ReturnType<typeof createApiSends>;
