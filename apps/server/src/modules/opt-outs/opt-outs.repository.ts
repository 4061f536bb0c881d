import type { OptOutSource } from '@ecoa/shared';
import type { DbHandle } from '../../platform/db/client.ts';

/** An opt-out as read (the service makes it the API's `OptOut`; `created_at` as the driver gives it). */
export type OptOutRow = { phone: string; source: OptOutSource; created_at: Date | string };

export function createOptOutsRepository(handle: DbHandle) {
  return {
    /** Adds numbers (already E.164); returns how many were new. */
    async add(userId: string, phones: string[], source: OptOutSource): Promise<number> {
      if (phones.length === 0) return 0;
      const { rows } = await handle.executeSql(
        `insert into opt_outs (user_id, phone, source)
         select $1::uuid, p, $3 from unnest($2::text[]) as t(p)
         on conflict (user_id, phone) do nothing returning phone`,
        [userId, phones, source],
      );
      return rows.length;
    },

    async remove(userId: string, phone: string): Promise<boolean> {
      const { rows } = await handle.executeSql(
        'delete from opt_outs where user_id = $1 and phone = $2 returning phone',
        [userId, phone],
      );
      return rows.length > 0;
    },

    /** Newest first; `digits` filters by a part of the number. */
    async page(userId: string, digits: string, page: number, pageSize: number) {
      const pattern = digits ? `%${digits}%` : '%';
      const { rows } = await handle.executeSql(
        `select phone, source, created_at from opt_outs
          where user_id = $1 and phone like $2 order by created_at desc, phone limit $3 offset $4`,
        [userId, pattern, pageSize, (page - 1) * pageSize],
      );
      const { rows: total } = await handle.executeSql(
        'select count(*)::int as n from opt_outs where user_id = $1 and phone like $2',
        [userId, pattern],
      );
      return { rows: rows as OptOutRow[], total: (total[0] as { n: number }).n };
    },

    /** Which of these numbers are opted out for the account (campaigns skip them). */
    async which(userId: string, phones: string[]): Promise<Set<string>> {
      if (phones.length === 0) return new Set();
      const { rows } = await handle.executeSql(
        'select phone from opt_outs where user_id = $1 and phone = any($2::text[])',
        [userId, phones],
      );
      return new Set((rows as { phone: string }[]).map((r) => r.phone));
    },
  };
}

export type OptOutsRepository = ReturnType<typeof createOptOutsRepository>;
