import type { BuildOptions } from 'esbuild';
export declare function buildCli(folder: string, options: BuildOptions): Promise<void>;
export declare function makeCodeCache(folder: string): Promise<void>;
