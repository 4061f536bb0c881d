/**
 * The sending API's rules around the campaign engine: a request checked (campaigns' `prepare`),
 * then queued in ONE transaction that also holds its `Idempotency-Key` and stores its answer, so
 * a retry gets the first answer (status and body), another body under the same key a 409, and two
 * identical requests at the same moment queue once.
 */
import { createHash } from 'node:crypto';
import type { MessageList, SendBatchInput, SendBatchResult, SendMessageInput, SendMessageResult } from '@ecoa/shared';
import type { Database, Tx } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { ApiContent, ApiSends, PreparedApiSend } from '../campaigns/index.ts';
import type { MessageListFilter, MessagesList } from '../channels/index.ts';
import type { MessagesApiRepository, StoredAnswer } from './messages-api.repository.ts';

export type ApiAnswer<T> = { status: number; body: T };

type Deps = {
  db: Database;
  repo: MessagesApiRepository;
  apiSends: Pick<ApiSends, 'prepare' | 'queue' | 'wake' | 'cancel'>;
  messagesList: MessagesList;
};

/** What a request asked, for comparing retries: the route and its validated body (keys in the schema's order). */
function requestHash(route: string, body: unknown): string {
  return createHash('sha256').update(route).update('\n').update(JSON.stringify(body)).digest('hex');
}

function contentOf(input: SendMessageInput | SendBatchInput): ApiContent {
  const { channel, text, template, audioId, tts, rcs, scheduledAt, window } = input;
  return { channel, text, template, audioId, tts, rcs, scheduledAt, window };
}

export function createMessagesApiService(deps: Deps) {
  const { db, repo, apiSends } = deps;

  function replay<T>(stored: StoredAnswer, hash: string): ApiAnswer<T> {
    if (stored.requestHash !== hash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
    return { status: stored.status, body: stored.response as T };
  }

  /**
   * Runs `prepare` (checks, outside the transaction) then `queue` (in it) once per key: the key
   * is claimed first thing in the transaction and the answer stored before it commits.
   */
  async function once<T>(
    userId: string,
    key: string | undefined,
    hash: string,
    prepare: () => Promise<PreparedApiSend>,
    answer: (prepared: PreparedApiSend, tx: Tx) => Promise<T>,
  ): Promise<ApiAnswer<T>> {
    if (key) {
      const earlier = await repo.find(userId, key);
      if (earlier) return replay(earlier, hash);
    }
    const prepared = await prepare();
    const result = await db.transaction(async (tx): Promise<ApiAnswer<T>> => {
      if (key && !(await repo.claim(userId, key, hash, tx))) {
        // A twin held the key: it committed while this one waited on it, its answer stored.
        const twin = await repo.find(userId, key, tx);
        return replay<T>(twin!, hash);
      }
      const body = await answer(prepared, tx);
      if (key) await repo.store(userId, key, 202, body, tx);
      return { status: 202, body };
    });
    apiSends.wake();
    return result;
  }

  return {
    /** `POST /api/v1/messages`: one message; its recipient refused is the request refused (400/409). */
    send(userId: string, input: SendMessageInput, key?: string): Promise<ApiAnswer<SendMessageResult>> {
      return once(
        userId,
        key,
        requestHash('POST /api/v1/messages', input),
        async () => {
          const prepared = await apiSends.prepare(userId, contentOf(input), [
            { to: input.to, variables: input.variables, externalId: input.externalId },
          ]);
          const [refused] = prepared.rejected;
          if (refused) throw new AppError(refused.code);
          return prepared;
        },
        async (prepared, tx) => {
          await apiSends.queue(prepared, tx);
          const [message] = prepared.accepted;
          return { id: message!.id, status: 'queued' as const, parts: message!.parts, credits: prepared.parts };
        },
      );
    },

    /** `POST /api/v1/messages/batch`: each recipient accepted or refused on its own. */
    sendBatch(userId: string, input: SendBatchInput, key?: string): Promise<ApiAnswer<SendBatchResult>> {
      return once(
        userId,
        key,
        requestHash('POST /api/v1/messages/batch', input),
        () => apiSends.prepare(userId, contentOf(input), input.messages),
        async (prepared, tx) => {
          const { batchId } = prepared.rows.length > 0 ? await apiSends.queue(prepared, tx) : { batchId: null };
          return {
            batchId,
            accepted: prepared.accepted.map(({ index, id, to, externalId }) => ({ index, id, to, externalId })),
            rejected: prepared.rejected,
            credits: prepared.parts,
          };
        },
      );
    },

    cancel: (userId: string, messageId: string) => apiSends.cancel(userId, messageId),

    list: (userId: string, filter: MessageListFilter): Promise<MessageList> => deps.messagesList.page(userId, filter),
  };
}

export type MessagesApiService = ReturnType<typeof createMessagesApiService>;
