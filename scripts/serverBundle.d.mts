import type { BuildOptions } from 'esbuild';
export declare function buildServer(folder: string, options: BuildOptions): Promise<void>;
export declare function makeServerCodeCache(folder: string): Promise<void>;
