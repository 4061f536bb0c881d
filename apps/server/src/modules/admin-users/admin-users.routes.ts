import {
  ACCESS_LEVELS,
  centavosToReais,
  PRICE_TABLE_FIELDS,
  type PriceTableKey,
  priceToTenThousandths,
  tenThousandthsToReais,
} from '@ecoa/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthGuard, currentUser } from '../../platform/auth/guard.ts';
import type { UserRow } from '../users/users.schema.ts';
import type { AdminUsersService } from './admin-users.service.ts';

const PRICE_MESSAGE = 'Preço inválido: use um valor em reais, nunca negativo, com até 4 casas decimais.';

/** A unit price in reais: ≥ 0 with at most four decimals (stored exactly in ten-thousandths). */
const priceInReais = z
  .number({ error: PRICE_MESSAGE })
  .min(0, PRICE_MESSAGE)
  .max(1_000_000, PRICE_MESSAGE)
  .refine((v) => priceToTenThousandths(v) !== null, PRICE_MESSAGE);

const priceTableInput = z
  .object(
    Object.fromEntries(PRICE_TABLE_FIELDS.map((k) => [k, priceInReais.optional()])) as Record<
      PriceTableKey,
      z.ZodOptional<typeof priceInReais>
    >,
  )
  .strict();

const patchBody = z
  .object({
    active: z.boolean().optional(),
    accessLevel: z.enum(ACCESS_LEVELS, { error: 'Nível de acesso inválido.' }).optional(),
    priceTable: priceTableInput.optional(),
    permissions: z.object({ enriched: z.array(z.string().min(1).max(40)).max(20) }).optional(),
  })
  .strict();

const priceTableOut = z.object(
  Object.fromEntries(PRICE_TABLE_FIELDS.map((k) => [k, z.number()])) as Record<PriceTableKey, z.ZodNumber>,
);

const adminUser = z.object({
  id: z.string(),
  name: z.string(),
  fullName: z.string(),
  email: z.string(),
  cnpj: z.string(),
  mobilePhone: z.string(),
  createdAt: z.string(),
  active: z.boolean(),
  accessLevel: z.enum(ACCESS_LEVELS),
  isNewUser: z.boolean(),
  balance: z.object({ money: z.number() }),
  priceTable: priceTableOut,
  permissions: z.object({ enriched: z.array(z.string()) }),
});

const PRICE_COLUMN: Record<PriceTableKey, keyof UserRow> = {
  smsShort: 'priceSmsShort',
  smsFlash: 'priceSmsFlash',
  whatsapp: 'priceWhatsapp',
  ura: 'priceUra',
  rcs: 'priceRcs',
  uraIntegration: 'priceUraIntegration',
  enriched: 'priceEnriched',
};

function toAdminUser(row: UserRow, moneyCentavos: number): z.infer<typeof adminUser> {
  return {
    id: row.id,
    name: row.name,
    fullName: row.fullName,
    email: row.email,
    cnpj: row.cnpj,
    mobilePhone: row.mobilePhone,
    createdAt: row.createdAt.toISOString(),
    active: row.active,
    accessLevel: row.accessLevel,
    isNewUser: row.isNewUser,
    balance: { money: centavosToReais(moneyCentavos) },
    priceTable: Object.fromEntries(
      PRICE_TABLE_FIELDS.map((k) => [k, tenThousandthsToReais(row[PRICE_COLUMN[k]] as number)]),
    ) as Record<PriceTableKey, number>,
    permissions: { enriched: row.permissionsEnriched },
  };
}

export function registerAdminUsersRoutes(app: FastifyInstance, deps: { service: AdminUsersService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, guard } = deps;

  r.get(
    '/api/v1/admin/users',
    {
      preHandler: guard.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Search users (name, company, e-mail, CNPJ), paginated',
        security: [{ bearer: [] }],
        querystring: z.object({
          search: z.string().max(200).optional().default(''),
          page: z.coerce.number().int().min(1).optional().default(1),
          pageSize: z.coerce.number().int().min(1).max(100).optional().default(20),
        }),
        response: {
          200: z.object({ items: z.array(adminUser), total: z.number(), page: z.number(), pageSize: z.number() }),
        },
      },
    },
    async (request) => {
      const { search, page, pageSize } = request.query;
      const { rows, total } = await service.list({ search, page, pageSize });
      return { items: rows.map((r) => toAdminUser(r.row, r.moneyCentavos)), total, page, pageSize };
    },
  );

  r.get(
    '/api/v1/admin/users/:id',
    {
      preHandler: guard.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'One user with the audit history of administrative changes',
        security: [{ bearer: [] }],
        params: z.object({ id: z.uuid({ error: 'Usuário não encontrado.' }) }),
        response: {
          200: adminUser.extend({
            history: z.array(
              z.object({
                id: z.string(),
                action: z.string(),
                changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
                createdAt: z.string(),
                actor: z.object({ id: z.string(), name: z.string(), email: z.string() }),
              }),
            ),
          }),
        },
      },
    },
    async (request) => {
      const { row, moneyCentavos, history } = await service.get(request.params.id);
      return {
        ...toAdminUser(row, moneyCentavos),
        history: history.map((h) => ({ ...h, createdAt: h.createdAt.toISOString() })),
      };
    },
  );

  r.patch(
    '/api/v1/admin/users/:id',
    {
      preHandler: guard.requireAdmin,
      schema: {
        tags: ['admin'],
        summary: 'Change access, active flag, unit prices (reais, 4 decimals) or enrichment permission',
        security: [{ bearer: [] }],
        params: z.object({ id: z.uuid({ error: 'Usuário não encontrado.' }) }),
        body: patchBody,
        response: { 200: adminUser },
      },
    },
    async (request) => {
      const body = request.body;
      const priceTable = body.priceTable
        ? Object.fromEntries(
            Object.entries(body.priceTable)
              .filter(([, v]) => v !== undefined)
              .map(([k, v]) => [k, priceToTenThousandths(v as number) as number]),
          )
        : undefined;
      const row = await service.update(currentUser(request).id, request.params.id, { ...body, priceTable });
      const { moneyCentavos } = await service.get(row.id);
      return toAdminUser(row, moneyCentavos);
    },
  );
}
