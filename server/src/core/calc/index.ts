export * from './throughput';
export * from './io';
export * from './network';
export * from './cost';
export * from './advisor';
