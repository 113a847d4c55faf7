/**
 * The facts table: the one home of every number anf-lint uses, each with its source.
 * Nothing outside this folder writes a limit, rate, price, default or measured figure again
 * (test/unit/no-magic-numbers.test.ts checks it). Sections live in their own files only to keep
 * each one readable; import everything from here.
 */
export * from './fact';
export * from './sources';
export * from './anf';
export * from './nfsClient';
export * from './kernel';
export * from './workloads';
export * from './iac';
export * from './perftest';
