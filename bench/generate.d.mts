// Types for the benchmark's input generator, so tests can build the same large inputs.
export function prng(seed: number): () => number;
export function manifest(volumes: number, pools?: number, seed?: number): string;
export function fstab(count: number, seed?: number): string;
/** `lines` lines of sysctl.d settings with comments, split in files of `perFile` lines (path to text). */
export function sysctlSet(lines: number, perFile?: number, seed?: number): Record<string, string>;
export function workspaceFiles(count: number, seed?: number): Record<string, string>;
export function smallFstab(): string;
export function terraform(lines?: number, seed?: number): string;
/** A provisioning script of about `lines` lines: mounts, here-documents, fstab and sysctl.d writes, variables. */
export function provisioningScript(lines?: number, seed?: number): string;
