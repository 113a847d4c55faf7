export declare const webTreeSitterCjs: Record<string, string>;
export declare function copyIacWasm(root?: string): Promise<void>;
