export * from './constants.ts';
export * from './enums.ts';
export * from './money.ts';
export * from './phones/index.ts';
export * from './routes.ts';
export * from './schemas/auth.ts';
export * from './schemas/ledger.ts';
export * from './validators/cnpj.ts';
