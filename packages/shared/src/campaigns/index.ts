export * from './variables.ts';
export * from './window.ts';
