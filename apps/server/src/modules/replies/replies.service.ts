import type { RepliesFilter, RepliesPage, RepliesQuery, Reply } from '@ecoa/shared';
import { repliesQuerySchema } from '@ecoa/shared';
import type { Clock } from '../../platform/clock/clock.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { csvLine } from '../../platform/http/csv.ts';
import type { ChannelsService, RepliesFilterRows, RepliesRepository } from '../channels/index.ts';
import { decodeCursor, encodeCursor, toReplyDto } from './replies.mappers.ts';

/** Rows per statement of the CSV export (keyset pages, so the export never holds them all). */
const EXPORT_PAGE = 1000;
const SAO_PAULO = new Intl.DateTimeFormat('pt-BR', {
  timeZone: 'America/Sao_Paulo',
  dateStyle: 'short',
  timeStyle: 'medium',
});

function rowsFilter(filter: RepliesFilter): RepliesFilterRows {
  return {
    ...(filter.campaignId ? { campaignId: filter.campaignId } : {}),
    ...(filter.channel ? { channel: filter.channel } : {}),
    ...(filter.from ? { from: new Date(filter.from) } : {}),
    ...(filter.to ? { to: new Date(filter.to) } : {}),
    ...(filter.handled ? { handled: filter.handled === 'true' } : {}),
  };
}

/**
 * The replies inbox: the user's incoming replies read through the channels module (which owns
 * them), marked handled, exported, and answered (a paid send through channels' test-send path).
 */
export function createRepliesService(deps: {
  inbox: RepliesRepository;
  channels: Pick<ChannelsService, 'answerReply'>;
  clock: Clock;
}) {
  const { inbox, clock } = deps;

  async function owned(userId: string, id: string) {
    const row = await inbox.findOwned(userId, id);
    if (!row) throw new AppError('REPLY_NOT_FOUND');
    return row;
  }

  return {
    async list(userId: string, query: RepliesQuery): Promise<RepliesPage> {
      const q = repliesQuerySchema.parse(query);
      const after = q.cursor ? decodeCursor(q.cursor) : undefined;
      if (q.cursor && !after) throw new AppError('INVALID_CURSOR');
      // One more than asked says whether another page follows.
      const rows = await inbox.page(userId, rowsFilter(q), after, q.limit + 1);
      const items = rows.slice(0, q.limit);
      const now = clock.now();
      return {
        items: items.map((r) => toReplyDto(r, now)),
        nextCursor: rows.length > q.limit ? encodeCursor(items[items.length - 1]!) : null,
      };
    },

    /** The CSV export with the list's filters, newest first, streamed page by page. */
    async *csv(userId: string, filter: RepliesFilter): AsyncGenerator<string> {
      yield '\ufeff';
      yield csvLine(['recebida em', 'telefone', 'nome', 'canal', 'texto', 'descadastro', 'campanha', 'tratada em']);
      const where = rowsFilter(filter);
      for (let after: { receivedAt: Date; id: string } | undefined; ; ) {
        const page = await inbox.page(userId, where, after, EXPORT_PAGE);
        let chunk = '';
        for (const r of page)
          chunk += csvLine([
            SAO_PAULO.format(r.receivedAt),
            r.phone.replace(/^\+/, ''),
            r.contactName,
            r.channel,
            r.text,
            r.optOut ? 'sim' : 'não',
            r.campaignKind === 'api' ? `API${r.externalId ? ` ${r.externalId}` : ''}` : r.campaignName,
            r.handledAt ? SAO_PAULO.format(r.handledAt) : '',
          ]);
        if (chunk) yield chunk;
        if (page.length < EXPORT_PAGE) return;
        after = page[page.length - 1]!;
      }
    },

    async setHandled(userId: string, id: string, handled: boolean): Promise<Reply> {
      if (!(await inbox.setHandled(userId, id, handled ? clock.now() : null))) throw new AppError('REPLY_NOT_FOUND');
      return toReplyDto(await owned(userId, id), clock.now());
    },

    /** Answers the user's reply on its channel, paid like a test send; `id` is the answer's message. */
    async answer(userId: string, id: string, text: string, options: { idempotencyKey?: string } = {}) {
      const reply = await owned(userId, id);
      return deps.channels.answerReply(userId, reply, text, options);
    },
  };
}

export type RepliesService = ReturnType<typeof createRepliesService>;
