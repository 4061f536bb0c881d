export * from './catalogue.ts';
export * from './codes.ts';
export * from './texts.ts';
