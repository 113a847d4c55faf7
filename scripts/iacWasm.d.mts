import type { BuildOptions, BuildResult, Plugin } from 'esbuild';
export declare const webTreeSitterCjs: Record<string, string>;
export declare const WEB_TREE_SITTER_FILE: string;
export declare const webTreeSitterLazy: Plugin;
export declare function buildWebTreeSitter(outdir: string, options?: BuildOptions): Promise<BuildResult>;
export declare function copyIacWasm(root?: string, to?: string): Promise<void>;
export declare function placeIacWasmFor(outdir: string): Promise<void>;
