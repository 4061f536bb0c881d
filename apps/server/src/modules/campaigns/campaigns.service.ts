import {
  analyzeSms,
  type Campaign,
  type CampaignEstimate,
  CHANNEL_CREDIT_TYPE,
  type CreateCampaignInput,
  campaignProblem,
  DEFAULT_SENDING_WINDOW,
  type UpdateCampaignInput,
} from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';
import { MOBILE_ONLY, walkAudience } from './campaigns.audience.ts';
import { type ContentProblem, contentProblems } from './campaigns.content.ts';
import { estimateTally } from './campaigns.estimate-tally.ts';
import { audioOf, createCampaignLifecycle } from './campaigns.lifecycle.ts';
import { campaignBasics } from './campaigns.reports.service.ts';
import { scheduleToStore } from './campaigns.schedule.ts';
import type { CampaignRow } from './campaigns.schema.ts';
import type { CampaignsServiceDeps } from './campaigns.service-deps.ts';

export function toCampaignDto(
  row: CampaignRow,
  extra: Pick<Campaign, 'counts' | 'reasons' | 'answers'> & { clicks?: Campaign['clicks'] },
  now: Date,
): Campaign {
  return {
    ...campaignBasics(row, now),
    counts: extra.counts,
    credits: { reserved: row.creditsReserved, used: row.creditsUsed, released: row.creditsReleased },
    creditType: row.creditType,
    reasons: extra.reasons,
    answers: extra.answers,
    clicks: extra.clicks ?? { total: 0, recipients: 0, rate: 0 },
    statusDetail: row.statusDetail,
    listIds: row.listIds,
    content: row.content,
    window: row.window,
    maxRate: row.maxRate,
  };
}

export function createCampaignsService(deps: CampaignsServiceDeps) {
  const { repo, clock } = deps;

  async function owned(userId: string, id: string): Promise<CampaignRow> {
    const row = await repo.findOwned(userId, id);
    if (!row) throw new AppError('CAMPAIGN_NOT_FOUND');
    return row;
  }

  /** Everything that keeps the campaign from starting (content, lists, audio), translated by code. */
  async function problemsOf(row: CampaignRow): Promise<ContentProblem[]> {
    const problems = contentProblems(row.channel, row.content);
    if (row.listIds.length === 0) {
      problems.push(campaignProblem('LISTS_REQUIRED'));
    } else {
      const lists = await repo.listsOf(row.userId, row.listIds);
      if (lists.length < row.listIds.length) problems.push(campaignProblem('LIST_NOT_FOUND'));
      else if (lists.some((l) => l.status !== 'ready')) problems.push(campaignProblem('LIST_NOT_READY'));
    }
    const audioId = audioOf(row);
    if (audioId) {
      if (!(await deps.audioExists(row.userId, audioId))) problems.push(campaignProblem('AUDIO_NOT_FOUND'));
    }
    const tracked = row.content.trackedLink;
    if (tracked && 'rotatingLinkId' in tracked && !(await deps.rotatingLinkExists(row.userId, tracked.rotatingLinkId)))
      problems.push(campaignProblem('TRACKED_LINK_NOT_FOUND'));
    return problems;
  }

  const lifecycle = createCampaignLifecycle({ ...deps, problemsOf });

  return {
    ...lifecycle,

    async create(userId: string, input: CreateCampaignInput): Promise<{ id: string; status: 'DRAFT' }> {
      const now = clock.now();
      const scheduledAt = scheduleToStore(input.schedule, now);
      const row = await repo.insert({
        userId,
        name: input.name,
        channel: input.channel,
        // A list named twice is one audience (kept once, in the order first named).
        listIds: [...new Set(input.listIds)],
        content: input.content,
        window: input.window ?? DEFAULT_SENDING_WINDOW,
        maxRate: input.maxRate ?? null,
        scheduledAt,
        creditType: CHANNEL_CREDIT_TYPE[input.channel],
        createdAt: now,
        updatedAt: now,
      });
      return { id: row.id, status: 'DRAFT' };
    },

    /** A draft's fields; a campaign that started is not edited (duplicate it instead). */
    async update(userId: string, id: string, input: UpdateCampaignInput): Promise<Campaign> {
      const row = await owned(userId, id);
      if (row.status !== 'DRAFT') throw new AppError('CAMPAIGN_NOT_DRAFT');
      const channel = input.channel ?? row.channel;
      const now = clock.now();
      const scheduledAt = input.schedule !== undefined ? scheduleToStore(input.schedule, now) : undefined;
      const updated = await repo.update(id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        channel,
        creditType: CHANNEL_CREDIT_TYPE[channel],
        ...(input.listIds !== undefined ? { listIds: [...new Set(input.listIds)] } : {}),
        ...(input.content !== undefined ? { content: input.content } : {}),
        ...(input.window !== undefined ? { window: input.window ?? DEFAULT_SENDING_WINDOW } : {}),
        ...(input.maxRate !== undefined ? { maxRate: input.maxRate } : {}),
        ...(scheduledAt !== undefined ? { scheduledAt } : {}),
        updatedAt: now,
      });
      return this.get(userId, updated!.id);
    },

    async get(userId: string, id: string): Promise<Campaign> {
      const row = await owned(userId, id);
      const [tallies, answers, clicked] = await Promise.all([
        deps.tallies.campaigns([id]),
        row.channel === 'ura' ? repo.answers(id) : Promise.resolve([]),
        row.content.trackedLink ? repo.clicks(id) : Promise.resolve({ total: 0, recipients: 0 }),
      ]);
      const { counts, reasons } = tallies.get(id)!;
      // Click-through rate: recipients who clicked among those the carrier took.
      const reached = counts.delivered + counts.sent + counts.unknown;
      const clicks = {
        ...clicked,
        rate: reached > 0 ? Math.round((clicked.recipients / reached) * 10_000) / 10_000 : 0,
      };
      return toCampaignDto(row, { counts, reasons, answers, clicks }, clock.now());
    },

    /** Who would get it and what it costs, against the user's credits of the channel's type. */
    async estimate(userId: string, id: string): Promise<CampaignEstimate> {
      const row = await owned(userId, id);
      const problems = await problemsOf(row);
      const balances = await deps.ledger.getBalances(userId);
      const available = balances[row.creditType].available;
      const audience =
        row.listIds.length > 0 && !problems.some((p) => p.code.startsWith('LIST'))
          ? await repo.audienceCounts(userId, row.listIds)
          : { rows: 0, phones: 0, optedOut: 0, landlines: 0 };
      let recipients = 0;
      let parts = 0;
      let min = 0;
      let max = 0;
      let example: CampaignEstimate['example'] = null;
      let withoutAccents: CampaignEstimate['withoutAccents'] = null;
      const renderable = contentProblems(row.channel, row.content).length === 0;
      if (renderable && audience.phones > 0) {
        const tally = estimateTally();
        await walkAudience(
          repo,
          row,
          async (page) => {
            for (const { recipient, message } of page) tally.add(recipient.phone, message);
          },
          { publicUrl: deps.publicUrl, codes: false },
        );
        const sums = tally.result();
        ({ recipients, parts, example, withoutAccents } = sums);
        ({ min, max } = sums.partsPerMessage);
      } else {
        recipients = audience.phones - audience.optedOut - (MOBILE_ONLY.has(row.channel) ? audience.landlines : 0);
        parts = recipients;
        min = max = recipients > 0 ? 1 : 0;
      }
      if (audience.phones > 0 && recipients === 0) problems.push(campaignProblem('NO_RECIPIENTS'));
      const isSms = row.channel === 'sms_short' || row.channel === 'sms_flash';
      return {
        recipients,
        excluded: {
          optedOut: audience.optedOut,
          duplicates: audience.rows - audience.phones,
          landlines: MOBILE_ONLY.has(row.channel) ? audience.landlines : 0,
        },
        parts,
        partsPerMessage: { min, max },
        encoding: isSms && row.content.text ? analyzeSms(row.content.text).encoding : null,
        creditType: row.creditType,
        creditsNeeded: parts,
        available,
        shortfall: Math.max(0, parts - available),
        problems,
        example,
        withoutAccents,
      };
    },

    /** A new draft with the same settings (any campaign, finished or not). */
    async duplicate(userId: string, id: string): Promise<{ id: string; status: 'DRAFT' }> {
      const row = await owned(userId, id);
      const now = clock.now();
      const copy = await repo.insert({
        userId,
        name: `${row.name} (cópia)`.slice(0, 120),
        channel: row.channel,
        listIds: row.listIds,
        content: row.content,
        window: row.window,
        maxRate: row.maxRate,
        creditType: row.creditType,
        createdAt: now,
        updatedAt: now,
      });
      return { id: copy.id, status: 'DRAFT' };
    },

    /** The user's audio is played by a campaign that may still call (the audios module asks before a delete). */
    audioInUse: repo.audioInUse,
  };
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
