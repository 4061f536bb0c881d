import { normalizeBrazilianPhone, type OptOut, type OptOutSummary } from '@ecoa/shared';
import { AppError } from '../../platform/errors/app-error.ts';
import type { UploadStorage } from '../../platform/http/upload-storage.ts';
import { detectMapping, openSpreadsheet } from '../lists/index.ts';
import type { OptOutRow, OptOutsRepository } from './opt-outs.repository.ts';

const BATCH = 5000;
const SAMPLE_ROWS = 50;

export type OptOutsServiceDeps = { repo: OptOutsRepository; storage: UploadStorage };

/** An opt-out as the API shows it. */
function toOptOut(row: OptOutRow): OptOut {
  return { phone: row.phone, source: row.source, createdAt: new Date(row.created_at).toISOString() };
}

/**
 * The account-wide opt-out list. Numbers are stored in E.164, whatever spelling they came in,
 * so `(11) 91234-5678` typed here matches `5511912345678` in any list.
 */
export function createOptOutsService(deps: OptOutsServiceDeps) {
  const { repo, storage } = deps;

  function summarise() {
    const summary: OptOutSummary = { added: 0, alreadyOptedOut: 0, invalid: 0, invalidSamples: [] };
    return {
      summary,
      classify(values: string[]): string[] {
        const ok = new Set<string>();
        for (const value of values) {
          const r = normalizeBrazilianPhone(value);
          if (r.ok) ok.add(r.e164);
          else {
            summary.invalid++;
            if (summary.invalidSamples.length < 20) summary.invalidSamples.push({ value, reason: r.reason });
          }
        }
        return [...ok];
      },
      async add(userId: string, phones: string[], source: 'manual' | 'upload') {
        const added = await repo.add(userId, phones, source);
        summary.added += added;
        summary.alreadyOptedOut += phones.length - added;
      },
    };
  }

  return {
    async add(userId: string, values: string[]): Promise<OptOutSummary> {
      const s = summarise();
      await s.add(userId, s.classify(values), 'manual');
      return s.summary;
    },

    /** A CSV/XLSX of numbers: the phone column is detected like in a list import. */
    async upload(userId: string, file: { path: string }): Promise<OptOutSummary> {
      try {
        const sheet = await openSpreadsheet(file.path);
        const s = summarise();
        let phoneColumn = -1;
        let pending: string[][] = [];
        const seen = new Set<string>();
        const flush = async (rows: string[][]) => {
          const phones = s.classify(rows.map((r) => r[phoneColumn] ?? '')).filter((p) => !seen.has(p));
          for (const p of phones) seen.add(p);
          for (let i = 0; i < phones.length; i += BATCH) await s.add(userId, phones.slice(i, i + BATCH), 'upload');
        };
        for await (const batch of sheet.rows()) {
          if (phoneColumn < 0) {
            pending = pending.concat(batch);
            if (pending.length < SAMPLE_ROWS) continue;
            const mapping = detectMapping(pending.slice(0, SAMPLE_ROWS));
            phoneColumn = mapping.phone;
            await flush(mapping.hasHeader ? pending.slice(1) : pending);
            pending = [];
            continue;
          }
          await flush(batch);
        }
        if (phoneColumn < 0) {
          if (pending.length === 0) throw new AppError('NO_DATA_ROWS');
          const mapping = detectMapping(pending);
          phoneColumn = mapping.phone;
          const rows = mapping.hasHeader ? pending.slice(1) : pending;
          if (rows.length === 0) throw new AppError('NO_DATA_ROWS');
          await flush(rows);
        }
        return s.summary;
      } finally {
        await storage.remove(file.path);
      }
    },

    async remove(userId: string, value: string): Promise<void> {
      const r = normalizeBrazilianPhone(value);
      if (!r.ok || !(await repo.remove(userId, r.e164))) {
        throw new AppError('OPT_OUT_NOT_FOUND');
      }
    },

    async list(userId: string, search: string, page: number, pageSize: number) {
      // Search by any spelling: "(11) 9123" → digits; a full number is matched in E.164.
      const full = normalizeBrazilianPhone(search);
      const digits = full.ok ? full.e164.slice(1) : search.replace(/\D/g, '');
      const { rows, total } = await repo.page(userId, digits, page, pageSize);
      return { items: rows.map(toOptOut), total, page, pageSize };
    },

    /** A person replied with an opt-out word (SAIR, PARE…): their number (E.164) joins the account's list. */
    async addReply(userId: string, e164: string): Promise<boolean> {
      return (await repo.add(userId, [e164], 'reply')) > 0;
    },

    /** For campaigns: the numbers (E.164) of `phones` that must not be sent to. */
    optedOut(userId: string, phones: string[]): Promise<Set<string>> {
      return repo.which(userId, phones);
    },
  };
}

export type OptOutsService = ReturnType<typeof createOptOutsService>;
