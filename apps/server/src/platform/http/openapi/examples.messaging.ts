import type {
  ContactList,
  ListPreview,
  Message,
  MessageList,
  RepliesPage,
  Reply,
  ReplyAnswerInput,
  SendBatchRequest,
  SendBatchResult,
  SendMessageRequest,
  SendMessageResult,
} from '@ecoa/shared';
import { z } from 'zod';
import { IDS, type RouteExamples } from './examples.types.ts';

/** A spreadsheet in a multipart form (CSV or XLSX, up to 100 MB). */
const fileField = {
  type: 'string',
  contentMediaType: 'application/octet-stream',
  description: 'The CSV or XLSX file (up to 100 MB)',
};
const csvFile = 'telefone;nome;pedido\r\n11987654321;Ana;1234\r\n21998765432;Bia;1235\r\n';

/** A multipart form of a spreadsheet (`file`, required) and the route's other fields, with its example. */
function spreadsheetForm(fields: Record<string, unknown>, example: Record<string, string>): RouteExamples['form'] {
  return {
    schema: { type: 'object', required: ['file'], properties: { file: fileField, ...fields } },
    example: { file: csvFile, ...example },
  };
}

/** `POST /api/v1/lists/preview`'s answer (the route sends it unchecked): this mirrors the shared type. */
const listPreviewSchema = z.object({
  kind: z.enum(['csv', 'xlsx']),
  encoding: z.string().nullable(),
  delimiter: z.string().nullable(),
  hasHeader: z.boolean(),
  columns: z.array(
    z.object({
      index: z.number(),
      header: z.string().nullable(),
      key: z.string(),
      phoneShare: z.number(),
      samples: z.array(z.string()),
    }),
  ),
  rows: z.array(z.array(z.string())),
  mapping: z
    .object({
      hasHeader: z.boolean(),
      phone: z.number(),
      name: z.number().nullable(),
      fields: z.array(z.object({ column: z.number(), key: z.string() })),
    })
    .nullable(),
}) satisfies z.ZodType<ListPreview>;
const { $schema: _, ...listPreviewJson } = z.toJSONSchema(listPreviewSchema, { target: 'draft-2020-12' });

const list = {
  id: IDS.list,
  name: 'Clientes novembro',
  status: 'ready',
  progress: 100,
  rowsProcessed: 1020,
  total: 1020,
  valid: 1003,
  mobiles: 991,
  landlines: 12,
  invalid: 9,
  duplicates: 8,
  optedOut: 2,
  fileName: 'clientes-novembro.csv',
  fields: ['pedido', 'cidade'],
  createdAt: '2026-11-27T11:50:00.000Z',
  finishedAt: '2026-11-27T11:50:04.000Z',
} satisfies ContactList;

const reply = {
  id: IDS.reply,
  phone: '+5511987654321',
  contactName: 'Ana',
  channel: 'sms',
  text: 'Pode entregar depois das 18h?',
  receivedAt: '2026-11-27T14:10:40.000Z',
  optOut: false,
  handledAt: null,
  campaign: { id: IDS.campaign, name: 'Black Friday 2026', kind: 'campaign' },
  externalId: null,
  messageId: IDS.message,
  answerableUntil: null,
  answerable: true,
} satisfies Reply;

export const MESSAGING_EXAMPLES: Record<string, RouteExamples> = {
  'POST /api/v1/messages': {
    body: {
      channel: 'sms_short',
      to: '11987654321',
      text: 'Seu pedido {pedido} saiu para entrega',
      variables: { pedido: '1234' },
      externalId: 'pedido-1234',
    } satisfies SendMessageRequest,
    responses: { 202: { id: IDS.message, status: 'queued', parts: 1, credits: 1 } satisfies SendMessageResult },
  },
  'POST /api/v1/messages/batch': {
    body: {
      channel: 'sms_short',
      text: 'Olá {nome}, sua fatura vence amanhã',
      messages: [
        { to: '11987654321', variables: { nome: 'Ana' }, externalId: 'fatura-881' },
        { to: '21998765432', variables: { nome: 'Bia' } },
        { to: '123', variables: { nome: 'Caio' } },
      ],
    } satisfies SendBatchRequest,
    responses: {
      202: {
        batchId: IDS.batch,
        accepted: [
          { index: 0, id: IDS.message, to: '+5511987654321', externalId: 'fatura-881' },
          { index: 1, id: IDS.message2, to: '+5521998765432', externalId: null },
        ],
        rejected: [{ index: 2, code: 'INVALID_PHONE', message: 'Número de telefone inválido.' }],
        credits: 2,
      } satisfies SendBatchResult,
    },
  },
  'GET /api/v1/messages': {
    responses: {
      200: {
        items: [
          {
            id: IDS.message,
            channel: 'sms_short',
            to: '+5511987654321',
            status: 'delivered',
            reason: null,
            parts: 1,
            externalId: 'pedido-1234',
            batchId: null,
            createdAt: '2026-11-27T14:03:10.000Z',
            finishedAt: '2026-11-27T14:03:12.000Z',
          },
        ],
        nextCursor: null,
      } satisfies MessageList,
    },
  },
  'GET /api/v1/messages/:id': {
    responses: {
      200: {
        id: IDS.message,
        channel: 'sms_short',
        to: '+5511987654321',
        status: 'delivered',
        parts: 1,
        externalId: 'pedido-1234',
        batchId: null,
        createdAt: '2026-11-27T14:03:10.000Z',
        events: [
          { status: 'queued', at: '2026-11-27T14:03:10.000Z' },
          { status: 'sent', at: '2026-11-27T14:03:11.000Z' },
          { status: 'delivered', at: '2026-11-27T14:03:12.000Z' },
        ],
      } satisfies Message,
    },
  },
  'DELETE /api/v1/messages/:id': { responses: { 200: { id: IDS.message, status: 'canceled' } } },
  'GET /api/v1/replies': { responses: { 200: { items: [reply], nextCursor: null } satisfies RepliesPage } },
  'GET /api/v1/replies.csv': {
    responses: {},
    csv: {
      status: 200,
      example:
        'recebida em;telefone;nome;canal;texto;descadastro;campanha;tratada em\r\n' +
        '27/11/2026 11:10:40;5511987654321;Ana;sms;Pode entregar depois das 18h?;não;Black Friday 2026;\r\n',
    },
  },
  'PATCH /api/v1/replies/:id': {
    body: { handled: true },
    responses: { 200: { ...reply, handledAt: '2026-11-27T14:15:00.000Z' } satisfies Reply },
  },
  'POST /api/v1/replies/:id/answer': {
    body: { text: 'Pode sim, Ana: entregamos entre 18h e 21h.' } satisfies ReplyAnswerInput,
    responses: { 201: { id: IDS.message2 }, 200: { id: IDS.message2 } },
  },
  'GET /api/v1/lists/:id': { responses: { 200: list } },
  'PATCH /api/v1/lists/:id': { body: { name: 'Clientes VIP' }, responses: { 200: { ...list, name: 'Clientes VIP' } } },
  'DELETE /api/v1/lists/:id': { responses: { 204: null } },
  'POST /api/v1/lists': {
    form: spreadsheetForm(
      {
        name: { type: 'string', maxLength: 120, description: "The list's name (default: the file's)" },
        mapping: {
          type: 'string',
          contentMediaType: 'application/json',
          description:
            'Which column is what, as JSON `{hasHeader, phone, name, fields: [{column, key}]}`; absent: detected',
        },
      },
      {
        name: 'Clientes novembro',
        mapping: '{"hasHeader":true,"phone":0,"name":1,"fields":[{"column":2,"key":"pedido"}]}',
      },
    ),
    responses: { 201: { id: IDS.list } },
  },
  'POST /api/v1/lists/preview': {
    form: spreadsheetForm(
      { partial: { type: 'string', enum: ['true', 'false'], description: '`true`: the file is only its beginning' } },
      {},
    ),
    undeclared: { 200: listPreviewJson },
    responses: {
      200: {
        kind: 'csv',
        encoding: 'utf-8',
        delimiter: ';',
        hasHeader: true,
        columns: [
          { index: 0, header: 'telefone', key: 'telefone', phoneShare: 1, samples: ['11987654321', '21998765432'] },
          { index: 1, header: 'nome', key: 'nome', phoneShare: 0, samples: ['Ana', 'Bia'] },
          { index: 2, header: 'pedido', key: 'pedido', phoneShare: 0, samples: ['1234', '1235'] },
        ],
        rows: [
          ['11987654321', 'Ana', '1234'],
          ['21998765432', 'Bia', '1235'],
        ],
        mapping: { hasHeader: true, phone: 0, name: 1, fields: [{ column: 2, key: 'pedido' }] },
      } satisfies ListPreview,
    },
  },
};
