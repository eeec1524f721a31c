export * from './operations';
export * from './schemas';
export * from './tokens';
export * from './environments';
export * from './limits';
export * from './findings';
export * from './rules';
export * from './statistics';
export type * from './results';
