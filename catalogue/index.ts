export * from './operations';
export * from './answers';
export * from './schemas';
export * from './tokens';
export * from './environments';
export * from './limits';
export * from './findings';
export * from './rules';
