export * from './ddd.ts';
export * from './normalize.ts';
