export * from './operations';
export * from './schemas';
export * from './tokens';
export * from './environments';
export * from './limits';
export * from './findings';
export type * from './results';
