/**
 * Enrichment: CNPJs turned into phone numbers from the CNPJ base. Creating one checks the
 * inputs, reserves one ENRICHED credit per distinct valid CNPJ and queues the lookup, in one
 * transaction; the lookup (a job) fills the items in batches, then captures one credit per CNPJ
 * found with a phone and releases the rest, with the status, in one transaction: the user pays
 * only for hits, and a crash at any point neither loses nor double-counts a credit.
 */
import { setImmediate } from 'node:timers/promises';
import {
  type CreateEnrichmentRequest,
  type Enrichment,
  type EnrichmentPhone,
  type EnrichmentResult,
  normalizeBrazilianPhone,
} from '@ecoa/shared';
import type { AuthUser } from '../../platform/auth/guard.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import type { Database } from '../../platform/db/client.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { checkedPeriod } from '../../platform/http/period.ts';
import type { Jobs } from '../../platform/jobs/jobs.ts';
import type { LedgerService } from '../ledger/index.ts';
import type { DirectContact, DirectList } from '../lists/index.ts';
import { mayEnrich } from './enrichment.access.ts';
import { type CheckedCnpjs, checkCnpjs, cnpjsFromFile } from './enrichment.input.ts';
import { enrichmentLookupQueue } from './enrichment.jobs.ts';
import { toEnrichmentDto, toResult } from './enrichment.mappers.ts';
import type { BaseRow, EnrichmentRepository, ItemFill } from './enrichment.repository.ts';
import type { EnrichmentRow } from './enrichment.schema.ts';

/** CNPJs looked up per statement. */
const LOOKUP_BATCH = 5_000;
const reference = (id: string) => ({ type: 'enrichment', id });

export type EnrichmentServiceDeps = {
  db: Database;
  repo: EnrichmentRepository;
  ledger: Pick<LedgerService, 'reserve' | 'capture' | 'release' | 'outstandingReservation'>;
  jobs: Pick<Jobs, 'send' | 'wake'>;
  /** The user's `permissions.enriched` (the users module keeps it); `mayEnrich` is the rule over it. */
  enrichmentPermissions: (userId: string) => Promise<readonly string[]>;
  createList: (input: DirectList) => Promise<string>;
  clock: Clock;
};

/** The base's numbers, classified by the shared phone code (the import kept only valid ones). */
function phonesOf(e164s: string[]): EnrichmentPhone[] {
  return e164s.flatMap((p) => {
    const phone = normalizeBrazilianPhone(p);
    return phone.ok ? [{ e164: phone.e164, kind: phone.kind }] : [];
  });
}

function fillOf(position: number, row: BaseRow): ItemFill {
  return {
    position,
    companyName: row.companyName,
    tradeName: row.tradeName,
    situation: row.situation,
    city: row.city,
    uf: row.uf,
    cnae: row.cnae,
    phones: phonesOf(row.phones),
    email: row.email,
  };
}

export function createEnrichmentService(deps: EnrichmentServiceDeps) {
  const { db, repo, ledger, jobs, clock } = deps;

  async function allowed(user: AuthUser): Promise<void> {
    if (!(await mayEnrich(user, deps.enrichmentPermissions))) throw new AppError('ENRICHMENT_FORBIDDEN');
  }

  async function owned(user: AuthUser, id: string): Promise<EnrichmentRow> {
    await allowed(user);
    const row = await repo.findOwned(user.id, id);
    if (!row) throw new AppError('ENRICHMENT_NOT_FOUND');
    return row;
  }

  async function start(user: AuthUser, name: string, onlyActive: boolean, checked: CheckedCnpjs) {
    if (checked.cnpjs.length === 0)
      throw new AppError('NO_VALID_CNPJ', {
        invalid: checked.invalid,
        duplicates: checked.duplicates,
      });
    const baseMonth = await repo.baseMonth();
    if (!baseMonth) throw new AppError('CNPJ_BASE_EMPTY');
    const id = await db.transaction(async (tx) => {
      const created = await repo.insert(
        {
          userId: user.id,
          name,
          onlyActive,
          total: checked.total,
          valid: checked.cnpjs.length,
          invalid: checked.invalid,
          duplicates: checked.duplicates,
          invalidItems: checked.invalidItems,
          creditsReserved: checked.cnpjs.length,
          baseMonth,
        },
        tx,
      );
      // Refused with the exact shortfall (INSUFFICIENT_BALANCE) when the credits are not there.
      await ledger.reserve({
        userId: user.id,
        type: 'ENRICHED',
        amount: checked.cnpjs.length,
        reference: reference(created),
        tx,
      });
      await repo.insertItems(created, checked.cnpjs, tx);
      if (!(await jobs.send(enrichmentLookupQueue, { enrichmentId: created }, { singletonKey: created, tx })))
        throw new Error('the enrichment job was not queued');
      return created;
    });
    jobs.wake(enrichmentLookupQueue);
    return { id };
  }

  return {
    /** 403 ENRICHMENT_FORBIDDEN unless the user may enrich (checked before an upload is read). */
    assertAllowed: allowed,

    async create(user: AuthUser, input: CreateEnrichmentRequest) {
      await allowed(user);
      return start(user, input.name, input.onlyActive ?? false, checkCnpjs(input.cnpjs));
    },

    async createFromFile(user: AuthUser, input: { name: string; onlyActive: boolean; filePath: string }) {
      await allowed(user);
      return start(user, input.name, input.onlyActive, await cnpjsFromFile(input.filePath));
    },

    /** The job: looks the items up in batches, then settles the credits. Idempotent (a retry redoes it cleanly). */
    async runLookup(id: string): Promise<void> {
      const row = await repo.find(id);
      if (row?.status !== 'processing') return;
      for (let from = 0; ; ) {
        const items = await repo.itemsFrom(id, from, LOOKUP_BATCH);
        if (items.length === 0) break;
        const found = new Map(
          (
            await repo.lookup(
              items.map((i) => i.cnpj),
              row.onlyActive,
            )
          ).map((r) => [r.cnpj, r]),
        );
        await repo.fill(
          id,
          items.flatMap((i) => {
            const base = found.get(i.cnpj);
            return base ? [fillOf(i.position, base)] : [];
          }),
        );
        from = items[items.length - 1]!.position + 1;
        await repo.update(id, { progress: Math.min(99, Math.floor((from / row.valid) * 100)) });
        // PGlite's queries run in this thread as a promise chain: a turn of the event loop lets requests in.
        await setImmediate();
      }
      await db.transaction(async (tx) => {
        const locked = await repo.lock(id, tx);
        if (locked?.status !== 'processing') return;
        const { found, withPhone } = await repo.tally(id, tx);
        const held = { userId: locked.userId, type: 'ENRICHED' as const, reference: reference(id), tx };
        if (withPhone > 0) await ledger.capture({ ...held, amount: withPhone });
        if (locked.creditsReserved - withPhone > 0)
          await ledger.release({ ...held, amount: locked.creditsReserved - withPhone });
        await repo.update(
          id,
          {
            status: 'ready',
            progress: 100,
            found,
            withPhone,
            notFound: locked.valid - found,
            creditsUsed: withPhone,
            creditsReleased: locked.creditsReserved - withPhone,
            finishedAt: clock.now(),
          },
          tx,
        );
      });
    },

    /** A lookup that kept failing: the enrichment fails and every reserved credit goes back. */
    async giveUp(id: string, reason: string): Promise<void> {
      await db.transaction(async (tx) => {
        const locked = await repo.lock(id, tx);
        if (locked?.status !== 'processing') return;
        const held = await ledger.outstandingReservation(locked.userId, 'ENRICHED', reference(id));
        if (held > 0)
          await ledger.release({ userId: locked.userId, type: 'ENRICHED', amount: held, reference: reference(id), tx });
        await repo.update(id, { status: 'failed', error: reason, creditsReleased: held, finishedAt: clock.now() }, tx);
      });
    },

    async baseMonth(user: AuthUser): Promise<string | null> {
      await allowed(user);
      return repo.baseMonth();
    },

    async get(user: AuthUser, id: string): Promise<Enrichment> {
      return toEnrichmentDto(await owned(user, id));
    },

    async list(user: AuthUser, page: number, pageSize: number) {
      await allowed(user);
      const { rows, total } = await repo.page({ userId: user.id }, page, pageSize);
      return { items: rows.map((r) => toEnrichmentDto(r.enrichment)), total, page, pageSize };
    },

    async results(user: AuthUser, id: string, query: { found?: boolean; page: number; pageSize: number }) {
      await owned(user, id);
      const { rows, total } = await repo.results(id, { found: query.found }, query.page, query.pageSize);
      return { items: rows.map(toResult), total, page: query.page, pageSize: query.pageSize };
    },

    /** The whole result for the CSV export, page by page, in the API's shape. */
    async exportSource(user: AuthUser, id: string) {
      const row = await owned(user, id);
      async function* pages(): AsyncGenerator<EnrichmentResult[]> {
        for await (const page of repo.allItems(id)) yield page.map(toResult);
      }
      return { enrichment: row, pages: pages() };
    },

    /** A contact list of the phones found (mobiles and/or landlines), razão social as `{nome}`. */
    async toList(user: AuthUser, id: string, input: { name: string; kinds: ('mobile' | 'landline')[] }) {
      const row = await owned(user, id);
      if (row.status !== 'ready') throw new AppError('ENRICHMENT_NOT_READY');
      const contacts: DirectContact[] = [];
      for await (const page of repo.allItems(id)) {
        for (const item of page) {
          for (const phone of item.phones) {
            if (!input.kinds.includes(phone.kind)) continue;
            contacts.push({
              phone: phone.e164,
              kind: phone.kind,
              name: item.companyName,
              fields: {
                cnpj: item.cnpj,
                nome_fantasia: item.tradeName ?? '',
                cidade: item.city ?? '',
                uf: item.uf ?? '',
                cnae: item.cnae ?? '',
                email: item.email ?? '',
              },
            });
          }
        }
      }
      if (contacts.length === 0) throw new AppError('ENRICHMENT_NO_PHONES');
      const listId = await deps.createList({
        userId: user.id,
        name: input.name,
        fileName: `${row.name}.enriquecimento`,
        fieldKeys: ['cnpj', 'nome_fantasia', 'cidade', 'uf', 'cnae', 'email'],
        contacts,
        now: clock.now(),
      });
      return { listId };
    },

    /** Administrators open any user's enrichment. */
    async adminGet(id: string): Promise<Enrichment> {
      const row = await repo.find(id);
      if (!row) throw new AppError('ENRICHMENT_NOT_FOUND');
      return toEnrichmentDto(row);
    },

    async adminResults(id: string, query: { found?: boolean; page: number; pageSize: number }) {
      if (!(await repo.find(id))) throw new AppError('ENRICHMENT_NOT_FOUND');
      const { rows, total } = await repo.results(id, { found: query.found }, query.page, query.pageSize);
      return { items: rows.map(toResult), total, page: query.page, pageSize: query.pageSize };
    },

    async adminList(query: { userId?: string; from?: string; to?: string; page: number; pageSize: number }) {
      // A filter, not a series: any real period lists; a reversed one is a mistake worth saying.
      const { from, to } = checkedPeriod(query, { now: clock.now() });
      const { rows, total } = await repo.page({ userId: query.userId, from, to }, query.page, query.pageSize);
      return {
        items: rows.map((r) => ({ ...toEnrichmentDto(r.enrichment), user: r.user })),
        total,
        page: query.page,
        pageSize: query.pageSize,
      };
    },
  };
}

export type EnrichmentService = ReturnType<typeof createEnrichmentService>;
