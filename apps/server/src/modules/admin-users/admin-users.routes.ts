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
import { errorResponseSchema as errorResponse } from '../../platform/http/error-schema.ts';
import { type AdminUsersService, type AdminUserView, PRICE_COLUMNS } from './admin-users.service.ts';

const PRICE_MESSAGE = 'Preço inválido: use um valor em reais, nunca negativo, com até 4 casas decimais.';
const MAX_PRICE_REAIS = 1_000_000;

/** A unit price in reais (≥ 0, at most four decimals) → exact integer ten-thousandths. */
const priceInReais = z
  .number({ error: PRICE_MESSAGE })
  .min(0, PRICE_MESSAGE)
  .max(MAX_PRICE_REAIS, PRICE_MESSAGE)
  .refine((v) => priceToTenThousandths(v) !== null, PRICE_MESSAGE)
  .transform((v) => priceToTenThousandths(v) as number);

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
    active: z.boolean({ error: 'O campo "active" deve ser verdadeiro ou falso.' }).optional(),
    accessLevel: z.enum(ACCESS_LEVELS, { error: 'Nível de acesso inválido.' }).optional(),
    priceTable: priceTableInput.optional(),
    /** permissions.enriched of the spec: 'all' grants enrichment. */
    permissions: z
      .object({ enriched: z.array(z.string().trim().min(1).max(40)).max(20) }, { error: 'Permissões inválidas.' })
      .strict()
      .optional(),
  })
  .strict();

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
  /** Reais, like `/api/me` (blueprint: money in JSON is reais as a number). */
  balance: z.object({ money: z.number() }),
  priceTable: z.object(
    Object.fromEntries(PRICE_TABLE_FIELDS.map((k) => [k, z.number()])) as Record<PriceTableKey, z.ZodNumber>,
  ),
  permissions: z.object({ enriched: z.array(z.string()) }),
});

const historyEntry = z.object({
  id: z.string(),
  action: z.string(),
  /** field → {from, to}; fields in the API's words (`active`, `priceTable.smsShort`, …), prices in reais. */
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  createdAt: z.string(),
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});

const userParams = z.object({ id: z.uuid('Usuário inválido.') });

function toAdminUser({ row, moneyCentavos }: AdminUserView): z.infer<typeof adminUser> {
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
      PRICE_TABLE_FIELDS.map((k) => [k, tenThousandthsToReais(row[PRICE_COLUMNS[k]])]),
    ) as Record<PriceTableKey, number>,
    permissions: { enriched: [...row.permissionsEnriched] },
  };
}

/** `/api/v1/admin/users`: administrators only (checked before the input is read). */
export function registerAdminUsersRoutes(app: FastifyInstance, deps: { service: AdminUsersService; guard: AuthGuard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { service, guard } = deps;
  const common = { tags: ['admin'], security: [{ bearer: [] }] };
  const denied = { 401: errorResponse, 403: errorResponse };

  r.get(
    '/api/v1/admin/users',
    {
      onRequest: guard.requireAdmin,
      schema: {
        ...common,
        summary: 'Search users (company, full name, e-mail, CNPJ with or without the mask), newest first',
        querystring: z.object({
          search: z.string().max(200).optional().default(''),
          page: z.coerce.number().int().min(1).max(1_000_000).optional().default(1),
          pageSize: z.coerce.number().int().min(1).max(100).optional().default(20),
        }),
        response: {
          200: z.object({ items: z.array(adminUser), total: z.number(), page: z.number(), pageSize: z.number() }),
          400: errorResponse,
          ...denied,
        },
      },
    },
    async (request) => {
      const { search, page, pageSize } = request.query;
      const { items, total } = await service.list({ search, page, pageSize });
      return { items: items.map(toAdminUser), total, page, pageSize };
    },
  );

  r.get(
    '/api/v1/admin/users/:id',
    {
      onRequest: guard.requireAdmin,
      schema: {
        ...common,
        summary: 'One user with the audit history of administrative changes, newest first',
        params: userParams,
        response: {
          200: adminUser.extend({ history: z.array(historyEntry) }),
          400: errorResponse,
          404: errorResponse,
          ...denied,
        },
      },
    },
    async (request) => {
      const { history, ...view } = await service.get(request.params.id);
      return { ...toAdminUser(view), history: history.map((h) => ({ ...h, createdAt: h.createdAt.toISOString() })) };
    },
  );

  r.patch(
    '/api/v1/admin/users/:id',
    {
      onRequest: guard.requireAdmin,
      schema: {
        ...common,
        summary: 'Change the active flag, access level, unit prices (reais, 4 decimals) or enrichment permission',
        params: userParams,
        body: patchBody,
        response: { 200: adminUser, 400: errorResponse, 404: errorResponse, 409: errorResponse, ...denied },
      },
    },
    async (request) => toAdminUser(await service.update(currentUser(request).id, request.params.id, request.body)),
  );
}
