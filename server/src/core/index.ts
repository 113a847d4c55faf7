/**
 * The pure core of anf-lint: text in, diagnostics, figures and fixes out. No editor, protocol or
 * filesystem imports here; the LSP adapter, the CLI and the VS Code client are thin layers over it.
 */
export * from './diagnostics';
export * from './text/sourceText';
export * from './config';
export * from './configFile';
export * from './edits';
export * from './lint';
export * from './rules/findingLimits';
export * from './suppressions';
export * from './rules/rule';
export * from './registry';
export * from './fileKind';
export * from './workspace/parsedFile';
export * from './workspace/parseFile';
export * from './workspace/workspace';
export * from './workspace/workspaceView';
export type { VolumeSummary } from './manifest/volumeSummary';
export type { MountEntry, MountOption } from './mounts/model';
export type { KernelSetting } from './sysctl/model';
export {
  buildHostModel,
  DOCUMENTATION_KINDS,
  hostModelOf,
  hostRootOf,
  onHostWords,
  OWN_SCOPE_KINDS,
  type Host,
  type HostKind,
  type HostModel,
} from './workspace/hosts';
