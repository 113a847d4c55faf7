/**
 * Configuration per workspace folder. Each folder's `.anf-lint.yaml` (an open copy wins over the
 * disk) applies to the documents in that folder, under the editor's `anfLint` settings, which layer
 * on every folder's file alike (settings.ts). A document belongs to the folder whose URI is the
 * longest prefix of its own (nested folders: the inner one). A folder without a configuration file
 * lints with the defaults; a document outside every folder takes the configuration of the first
 * folder that has a file, else the defaults.
 */
import type { AnfLintConfig, Diagnostic, ResolvedConfig } from '../core';
import { checkConfigFile } from '../core/features/configDiagnostics';
import { CONFIG_FILE_NAMES } from './configFile';
import { effectiveConfig } from './settings';
import { canonicalUri } from './workspaceIndex';

export interface FolderConfig {
  /** The folder's canonical URI, ending in `/`. */
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

/** The configurations of all folders, and which one a document uses. */
export class FolderConfigs {
  constructor(
    readonly folders: readonly FolderConfig[],
    /** The defaults with the editor's settings on top. */
    readonly defaults: ResolvedConfig,
  ) {}

  /** The folder that contains a document: the longest folder URI that is a prefix of its own. */
  folderOf(uri: string): FolderConfig | undefined {
    const key = canonicalUri(uri);
    let best: FolderConfig | undefined;
    for (const folder of this.folders) if (key.startsWith(folder.root) && (!best || folder.root.length > best.root.length)) best = folder;
    return best;
  }

  /** Where a document's configuration comes from: its folder, else the first folder with a configuration file. */
  sourceOf(uri: string): FolderConfig | undefined {
    return this.folderOf(uri) ?? this.fallback();
  }

  /** For documents outside every folder, and requests about no document. */
  fallback(): FolderConfig | undefined {
    return this.folders.find((f) => f.file);
  }

  configFor(uri: string): ResolvedConfig {
    return this.sourceOf(uri)?.resolved ?? this.defaults;
  }

  /** The folder whose configuration file this is. */
  ofConfigFile(uri: string): FolderConfig | undefined {
    return this.folders.find((f) => f.file?.uri === uri);
  }

  configFileUris(): string[] {
    return this.folders.flatMap((f) => (f.file ? [f.file.uri] : []));
  }
}

/** What a document's configuration is made of (the editor's settings aside): its source file's URI and text. */
export function configSignature(folder: FolderConfig | undefined): string {
  return folder?.file ? `${folder.file.uri}\n${folder.file.text}` : '';
}

/**
 * Reads each folder's configuration file through `lookup` (by canonical URI: the open document, else
 * the indexed disk file) and checks it.
 */
export function readFolderConfigs(folders: readonly string[], lookup: (canonical: string) => { uri: string; text: string } | undefined, editor: AnfLintConfig): FolderConfigs {
  const defaults = effectiveConfig({}, editor).resolved;
  const configs = folders.map((folder): FolderConfig => {
    const root = folderRoot(folder);
    let file: { uri: string; text: string } | undefined;
    for (const name of CONFIG_FILE_NAMES) {
      file = lookup(canonicalUri(`${root}${name}`));
      if (file) break;
    }
    if (!file) return { root, diagnostics: [], resolved: defaults };
    const checked = checkConfigFile(file.uri, file.text, defaults);
    return { root, file, diagnostics: checked.diagnostics, resolved: effectiveConfig(checked.config, editor).resolved };
  });
  return new FolderConfigs(configs, defaults);
}
