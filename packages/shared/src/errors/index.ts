export * from './catalogue.ts';
export * from './texts.ts';
