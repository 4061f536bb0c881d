/**
 * The CNPJ base's public surface: the module as the composition root builds it (service and
 * routes).
 */
export { type CnpjBaseModule, createCnpjBaseModule } from './cnpj-base.module.ts';
export type { EstablishmentRecord } from './cnpj-base.rows.ts';
