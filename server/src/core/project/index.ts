export * from './environment';
export * from './paths';
export * from './limits';
export * from './read';
export * from './discovery';
export * from './config';
export * from './fixes';
export * from './project';
export { MemoryEnvironment, type MemoryRepository } from './memoryEnvironment';
