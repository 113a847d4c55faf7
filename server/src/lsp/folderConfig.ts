/**
 * Configuration per document: the nearest `.anf-lint.yaml` above it within its workspace folder
 * (an open copy wins over the disk), the same lookup as the CLI's (core/project/config.ts), under
 * the editor's `anfLint` settings, which layer on every file alike (settings.ts). A document
 * belongs to the folder whose URI is the longest prefix of its own (nested folders: the inner
 * one). Without a configuration file it lints with the defaults; a document outside every folder
 * takes the configuration at the root of the first folder that has one, else the defaults.
 */
import type { AnfLintConfig, Diagnostic, ResolvedConfig } from '../core';
import { checkConfigFile } from '../core/features/configDiagnostics';
import { nearestConfig } from '../core/project/config';
import { CONFIG_FILE_NAMES } from './configFile';
import { effectiveConfig } from './settings';
import { canonicalUri } from './workspaceIndex';

export interface FolderConfig {
  /** The configuration file's folder (canonical URI ending in `/`); a workspace folder's root for the defaults. */
  readonly root: string;
  /** Its configuration file, if it has one. */
  readonly file?: { readonly uri: string; readonly text: string };
  /** The configuration file's own problems (ANF900–ANF904). */
  readonly diagnostics: readonly Diagnostic[];
  /** The file's configuration with the editor's settings on top. */
  readonly resolved: ResolvedConfig;
}

export function folderRoot(folderUri: string): string {
  return canonicalUri(folderUri).replace(/\/?$/, '/');
}

/** The folder root (of `roots`, canonical, ending in `/`) that holds a document: the longest that is a prefix of its URI. */
export function innermostFolder(roots: readonly string[], uri: string): string | undefined {
  const key = canonicalUri(uri);
  let best: string | undefined;
  for (const root of roots) if (key.startsWith(root) && (!best || root.length > best.length)) best = root;
  return best;
}

/** The configurations of all folders, and which one a document uses. */
export class FolderConfigs {
  private readonly byKey = new Map<string, FolderConfig>();

  constructor(
    /** The workspace folders' roots (canonical, ending in `/`). */
    readonly roots: readonly string[],
    /** Every configuration file inside a folder, by canonical URI. */
    readonly files: readonly FolderConfig[],
    /** The defaults with the editor's settings on top. */
    readonly defaults: ResolvedConfig,
  ) {
    for (const file of files) this.byKey.set(canonicalUri(file.file!.uri), file);
  }

  /** The workspace folder that contains a document: the longest folder URI that is a prefix of its own. */
  folderOf(uri: string): string | undefined {
    return innermostFolder(this.roots, uri);
  }

  /** Where a document's configuration comes from: the nearest file above it in its folder, else the fallback. */
  sourceOf(uri: string): FolderConfig | undefined {
    // Asked for every file on every workspace question (Workspace's configuration callback): kept
    // per URI, this object being made again whenever a configuration file or the folders change.
    if (this.sources.has(uri)) return this.sources.get(uri);
    const source = this.lookUp(uri);
    this.sources.set(uri, source);
    return source;
  }
  private readonly sources = new Map<string, FolderConfig | undefined>();

  private lookUp(uri: string): FolderConfig | undefined {
    const root = this.folderOf(uri);
    if (root === undefined) return this.fallback();
    const key = canonicalUri(uri);
    const found = nearestConfig(key, root.replace(/\/$/, ''), (candidate) => this.byKey.has(candidate));
    return found === undefined ? undefined : this.byKey.get(found);
  }

  /** For documents outside every folder, and requests about no document: the first folder root's file. */
  fallback(): FolderConfig | undefined {
    for (const root of this.roots) {
      for (const name of CONFIG_FILE_NAMES) {
        const file = this.byKey.get(`${root}${name}`);
        if (file) return file;
      }
    }
    return undefined;
  }

  configFor(uri: string): ResolvedConfig {
    return this.sourceOf(uri)?.resolved ?? this.defaults;
  }

  /** The entry of a configuration file in a folder. */
  ofConfigFile(uri: string): FolderConfig | undefined {
    return this.byKey.get(canonicalUri(uri));
  }

  configFileUris(): string[] {
    return this.files.map((f) => f.file!.uri);
  }
}

/** What a document's configuration is made of (the editor's settings aside): its source file's URI and text. */
export function configSignature(folder: FolderConfig | undefined): string {
  return folder?.file ? `${folder.file.uri}\n${folder.file.text}` : '';
}

/** Reads the configuration files inside the folders (`files`: open documents win over the disk) and checks each. */
export function readFolderConfigs(
  folders: readonly string[],
  files: readonly { uri: string; text: string }[],
  editor: AnfLintConfig,
): FolderConfigs {
  const defaults = effectiveConfig({}, editor).resolved;
  const roots = folders.map(folderRoot);
  const configs: FolderConfig[] = [];
  for (const file of files) {
    const key = canonicalUri(file.uri);
    if (!roots.some((root) => key.startsWith(root))) continue;
    const checked = checkConfigFile(file.uri, file.text, defaults);
    configs.push({
      root: key.slice(0, key.lastIndexOf('/') + 1),
      file,
      diagnostics: checked.diagnostics,
      resolved: effectiveConfig(checked.config, editor).resolved,
    });
  }
  configs.sort((a, b) => (a.file!.uri < b.file!.uri ? -1 : a.file!.uri > b.file!.uri ? 1 : 0));
  return new FolderConfigs(roots, configs, defaults);
}
