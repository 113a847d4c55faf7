// Types for the benchmark's input generator, so tests can build the same large inputs.
export function prng(seed: number): () => number;
/** One edit of `typingEdits`: the live lines after it, where the character went, the line before it. */
export interface TypingEdit {
  readonly lines: readonly string[];
  readonly index: number;
  readonly character: number;
  readonly inserted: string;
  readonly original: string;
  readonly undo: boolean;
}
/** `count` characters typed at random places of random non-blank lines, each deleted again. */
export function typingEdits(text: string, count: number, seed: number): Generator<TypingEdit>;
export function manifest(volumes: number, pools?: number, seed?: number): string;
export function fstab(count: number, seed?: number): string;
/** `lines` lines of sysctl.d settings with comments, split in files of `perFile` lines (path to text). */
export function sysctlSet(lines: number, perFile?: number, seed?: number): Record<string, string>;
export function workspaceFiles(count: number, seed?: number): Record<string, string>;
export function smallFstab(): string;
export function terraform(lines?: number, seed?: number): string;
/** A provisioning script of about `lines` lines: mounts, here-documents, fstab and sysctl.d writes, variables. */
export function provisioningScript(lines?: number, seed?: number): string;
/** bench/lineServer.mjs's autofs map of `n` lines: keys with NFS options, a few comments and multi-mount entries. */
export function autofsLines(n: number): string;
/** A Terraform repository of about `files` files: platform and NetApp modules, and stacks that call them (path -> text). */
export function terraformRepository(files?: number, seed?: number): Record<string, string>;
