import type {
  Campaign,
  CampaignEstimate,
  CampaignList,
  CampaignMessages,
  CampaignTimeline,
  CreateCampaignRequest,
  StartCampaignRequest,
  UpdateCampaignRequest,
} from '@ecoa/shared';
import { IDS, type RouteExamples } from './examples.types.ts';

const draft = { id: IDS.campaign, status: 'DRAFT' as const };

const campaign = {
  id: IDS.campaign,
  name: 'Black Friday 2026',
  channel: 'sms_short',
  status: 'RUNNING',
  total: 1000,
  counts: {
    queued: 400,
    submitting: 0,
    sent: 150,
    delivered: 430,
    failed: 15,
    expired: 3,
    unknown: 0,
    optedOut: 2,
    canceled: 0,
  },
  credits: { reserved: 1000, used: 580, released: 20 },
  creditType: 'SMSSHORT',
  reasons: [{ reason: 'Número inexistente', count: 15 }],
  answers: [],
  clicks: { total: 0, recipients: 0, rate: 0 },
  statusReason: null,
  statusDetail: null,
  waitingWindow: false,
  listIds: [IDS.list],
  content: { text: 'Olá {nome}, a Black Friday começou: 30% em tudo até domingo.' },
  window: { days: [1, 2, 3, 4, 5, 6], start: '09:00', end: '21:00' },
  maxRate: null,
  createdAt: '2026-11-27T12:00:00.000Z',
  scheduledAt: null,
  startedAt: '2026-11-27T12:05:00.000Z',
  finishedAt: null,
} satisfies Campaign;

export const CAMPAIGN_EXAMPLES: Record<string, RouteExamples> = {
  'GET /api/v1/campaigns': {
    responses: {
      200: {
        items: [
          {
            id: IDS.campaign,
            name: 'Black Friday 2026',
            channel: 'sms_short',
            status: 'RUNNING',
            total: 1000,
            done: 600,
            sent: 150,
            delivered: 430,
            failed: 18,
            awaiting: 550,
            creditsUsed: 580,
            statusReason: null,
            waitingWindow: false,
            createdAt: '2026-11-27T12:00:00.000Z',
            scheduledAt: null,
            startedAt: '2026-11-27T12:05:00.000Z',
            finishedAt: null,
          },
        ],
        total: 1,
        page: 1,
        pageSize: 20,
      } satisfies CampaignList,
    },
  },
  'GET /api/v1/campaigns/:id': { responses: { 200: campaign } },
  'GET /api/v1/campaigns/:id/estimate': {
    responses: {
      200: {
        recipients: 998,
        excluded: { optedOut: 2, duplicates: 5, landlines: 12 },
        parts: 998,
        partsPerMessage: { min: 1, max: 1 },
        encoding: 'gsm7',
        creditType: 'SMSSHORT',
        creditsNeeded: 998,
        available: 5000,
        shortfall: 0,
        problems: [],
        example: { to: '+5511987654321', text: 'Olá Ana, a Black Friday começou: 30% em tudo até domingo.' },
        withoutAccents: null,
      } satisfies CampaignEstimate,
    },
  },
  'GET /api/v1/campaigns/:id/messages': {
    responses: {
      200: {
        items: [
          {
            id: IDS.message,
            to: '+5511987654321',
            name: 'Ana',
            status: 'delivered',
            reason: null,
            parts: 1,
            digits: null,
            clicks: 0,
            submittedAt: '2026-11-27T12:05:01.000Z',
            finishedAt: '2026-11-27T12:05:04.000Z',
          },
        ],
        total: 1,
        page: 1,
        pageSize: 50,
      } satisfies CampaignMessages,
    },
  },
  'GET /api/v1/campaigns/:id/export': {
    responses: {},
    csv: {
      status: 200,
      example:
        '\ufefftelefone;nome;status;motivo;partes;digitos;cliques;link;enviado em;finalizado em\r\n' +
        '5511987654321;Ana;delivered;;1;;0;;27/11/2026 09:05:01;27/11/2026 09:05:04\r\n',
    },
  },
  'GET /api/v1/campaigns/:id/timeline': {
    responses: {
      200: {
        bucket: 'minute',
        points: [
          { at: '2026-11-27T12:05:00.000Z', sent: 300, delivered: 210, failed: 4 },
          { at: '2026-11-27T12:06:00.000Z', sent: 280, delivered: 220, failed: 11 },
        ],
      } satisfies CampaignTimeline,
    },
  },
  'POST /api/v1/campaigns': {
    body: {
      name: 'Black Friday 2026',
      channel: 'sms_short',
      listIds: [IDS.list],
      content: { text: 'Olá {nome}, a Black Friday começou: 30% em tudo até domingo.' },
    } satisfies CreateCampaignRequest,
    responses: { 201: draft },
  },
  'PATCH /api/v1/campaigns/:id': {
    body: { schedule: '2026-11-28T12:00:00-03:00', maxRate: 50 } satisfies UpdateCampaignRequest,
    responses: {
      200: {
        ...campaign,
        status: 'DRAFT',
        total: 0,
        counts: { ...campaign.counts, queued: 0, sent: 0, delivered: 0, failed: 0, expired: 0, optedOut: 0 },
        credits: { reserved: 0, used: 0, released: 0 },
        reasons: [],
        maxRate: 50,
        scheduledAt: '2026-11-28T15:00:00.000Z',
        startedAt: null,
      } satisfies Campaign,
    },
  },
  'POST /api/v1/campaigns/:id/start': {
    body: { mode: 'now' } satisfies StartCampaignRequest,
    responses: { 200: campaign },
  },
  'POST /api/v1/campaigns/:id/pause': { responses: { 200: { ...campaign, status: 'PAUSED' } satisfies Campaign } },
  'POST /api/v1/campaigns/:id/resume': { responses: { 200: campaign } },
  'POST /api/v1/campaigns/:id/cancel': {
    responses: {
      200: {
        ...campaign,
        status: 'CANCELED',
        counts: { ...campaign.counts, queued: 0, canceled: 400 },
        credits: { reserved: 1000, used: 580, released: 420 },
        finishedAt: '2026-11-27T12:30:00.000Z',
      } satisfies Campaign,
    },
  },
  'POST /api/v1/campaigns/:id/duplicate': { responses: { 201: draft } },
};
