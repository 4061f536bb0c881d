import crypto from 'node:crypto';
import { openTestDb } from '../../../test/server.test-support.ts';
import type { Database, DbHandle } from '../../platform/db/client.ts';
import { type PriceColumn, type UserRow, users } from '../users/users.schema.ts';
import { createLedgerRepository } from './ledger.repository.ts';
import { createLedgerService, type LedgerService } from './ledger.service.ts';

/** Unit prices in ten-thousandths of a real, keyed like the users table columns. */
export type TestPrices = Partial<Pick<UserRow, PriceColumn>>;

/**
 * Tests of the ledger need only a users row: this inserts one directly (a unique e-mail per
 * call, so files and repeated runs on the shared PostgreSQL test database never collide).
 */
export async function insertTestUser(
  db: Database,
  options: TestPrices & { accessLevel?: 'USER' | 'ADMINISTRATOR' } = {},
): Promise<UserRow> {
  const tag = crypto.randomUUID().slice(0, 12);
  const [user] = await db
    .insert(users)
    .values({
      email: `ledger-${tag}@ecoa.test`,
      name: `Empresa ${tag}`,
      fullName: `Pessoa ${tag}`,
      cnpj: '11222333000181',
      mobilePhone: '11912345678',
      ...options,
    })
    .returning();
  return user!;
}

/** A test file's own database and the ledger service over it, on the system clock. */
export async function openLedgerTestDb(): Promise<{ handle: DbHandle; ledger: LedgerService }> {
  const handle = await openTestDb();
  const ledger = createLedgerService({ repo: createLedgerRepository(handle.db), clock: { now: () => new Date() } });
  return { handle, ledger };
}
