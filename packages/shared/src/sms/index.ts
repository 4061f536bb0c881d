export * from './accents.ts';
export * from './analyze.ts';
export * from './gsm7.ts';
