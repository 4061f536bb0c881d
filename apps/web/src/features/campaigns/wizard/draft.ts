import {
  type Campaign,
  type CampaignContent,
  type Channel,
  DEFAULT_SENDING_WINDOW,
  type SendingWindow,
  type StartCampaignRequest,
  type UpdateCampaignRequest,
} from '@ecoa/shared';
import { z } from 'zod';

/** What the wizard edits; saved to the server draft as the user moves on. */
export type WizardDraft = {
  name: string;
  channel: Channel;
  listIds: string[];
  content: CampaignContent;
  /** `later`: at `scheduleAt` (a `YYYY-MM-DDTHH:mm` wall-clock time in São Paulo). */
  when: 'now' | 'later';
  scheduleAt: string;
  window: SendingWindow;
  maxRate: number | null;
};

export const emptyDraft = (): WizardDraft => ({
  name: '',
  channel: 'sms_short',
  listIds: [],
  content: {},
  when: 'now',
  scheduleAt: '',
  window: DEFAULT_SENDING_WINDOW,
  maxRate: null,
});

/**
 * São Paulo has kept UTC−3 all year since 2019 (no daylight saving time): a wall-clock time
 * typed in the wizard is that instant. The server reads it with the offset, and checks windows
 * with the time-zone database.
 */
export function saoPauloIso(local: string): string | null {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d$/.test(local) ? `${local}:00-03:00` : null;
}

/** The wall-clock São Paulo time of an ISO instant, for the datetime input. */
export function toSaoPauloLocal(iso: string): string {
  const shifted = new Date(new Date(iso).getTime() - 3 * 3_600_000);
  return shifted.toISOString().slice(0, 16);
}

/** Why a chosen schedule cannot be sent (translated under `campaignWizard.problems`), or null. */
export type ScheduleProblem = 'SCHEDULE_REQUIRED' | 'SCHEDULE_IN_PAST';

/**
 * The form's own rule, stricter than the server's minute of grace (`SCHEDULE_GRACE_MS`): when the
 * user chose to schedule, a date and time after this browser's clock. Sending now needs nothing.
 */
export function scheduleProblem(d: Pick<WizardDraft, 'when' | 'scheduleAt'>, now = Date.now()): ScheduleProblem | null {
  if (d.when !== 'later') return null;
  const iso = saoPauloIso(d.scheduleAt);
  if (!iso) return 'SCHEDULE_REQUIRED';
  return new Date(iso).getTime() <= now ? 'SCHEDULE_IN_PAST' : null;
}

/**
 * The wizard form's resolver schema: the rule above on the date field, its message the problem's
 * code (the server's refusal of a schedule lands there the same way). The rest of a draft is saved
 * as typed and judged by the server's estimate.
 */
export const wizardDraftSchema = z.custom<WizardDraft>().superRefine((draft, ctx) => {
  const problem = scheduleProblem(draft);
  if (problem) ctx.addIssue({ code: 'custom', path: ['scheduleAt'], message: problem });
});

/** The start request: exactly what the user chose, so the server never sends a "schedule" at once. */
export function startRequest(d: WizardDraft): StartCampaignRequest {
  return d.when === 'later' ? { mode: 'schedule', schedule: saoPauloIso(d.scheduleAt) } : { mode: 'now' };
}

export function fromCampaign(c: Campaign): WizardDraft {
  return {
    name: c.name,
    channel: c.channel,
    listIds: c.listIds,
    content: c.content,
    when: c.scheduledAt ? 'later' : 'now',
    scheduleAt: c.scheduledAt ? toSaoPauloLocal(c.scheduledAt) : '',
    window: c.window,
    maxRate: c.maxRate,
  };
}

/**
 * The draft as the API takes it (the content keeps only what the channel uses). A schedule goes
 * only when it can be taken (a future date): an empty or passed one is left out, so saving an
 * earlier step is not refused for it; the "when" step and the start refuse it on the field.
 */
export function toRequest(d: WizardDraft, now = Date.now()): UpdateCampaignRequest {
  const c = d.content;
  const content: CampaignContent = (() => {
    switch (d.channel) {
      case 'sms_short':
      case 'sms_flash':
        return { text: c.text ?? '', ...(c.trackedLink ? { trackedLink: c.trackedLink } : {}) };
      case 'voice_torpedo':
        return c.audioId ? { audioId: c.audioId } : { tts: c.tts ?? '' };
      case 'ura':
        return {
          menu: c.menu?.audioId ? { audioId: c.menu.audioId } : { tts: c.menu?.tts ?? '' },
          options: c.options?.length ? c.options : ['1', '2'],
          ...(c.integrationUrl ? { integrationUrl: c.integrationUrl } : {}),
        };
      case 'whatsapp':
        return c.template?.name ? { template: c.template } : {};
      case 'rcs':
        return c.card
          ? { card: c.card, ...(c.suggestions ? { suggestions: c.suggestions } : {}) }
          : { text: c.text ?? '', ...(c.trackedLink ? { trackedLink: c.trackedLink } : {}) };
    }
  })();
  return {
    name: d.name.trim() || 'Campanha',
    channel: d.channel,
    listIds: d.listIds,
    content,
    ...(d.when === 'now'
      ? { schedule: null }
      : scheduleProblem(d, now) === null
        ? { schedule: saoPauloIso(d.scheduleAt) }
        : {}),
    window: d.window,
    maxRate: d.maxRate,
  };
}
