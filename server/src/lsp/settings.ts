/**
 * The configuration the server lints with: a workspace folder's `.anf-lint.yaml` (folderConfig.ts),
 * with the editor's `anfLint` settings on top (the same keys; see docs/capabilities.md). Unset editor
 * settings (null, empty string, empty object) leave the file's value in place.
 */
import { configSchema, FILE_ONLY_CONFIG_KEYS, resolveConfig, type AnfLintConfig, type ResolvedConfig } from '../core';

export const SETTINGS_SECTION = 'anfLint';

type Log = (message: string) => void;

function isUnset(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0)
  );
}

/** Drops unset values recursively, so that an editor's empty defaults do not hide the file's. */
function pruned(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const p = pruned(inner);
    if (!isUnset(p)) out[key] = p;
  }
  return out;
}

/**
 * Validates the editor's settings key by key: a bad value is logged and ignored, the rest applies.
 * Keys anf-lint does not know (an editor adds its own, like `trace`) are ignored silently.
 */
export function editorConfig(settings: unknown, log: Log): AnfLintConfig {
  const cleaned = pruned(settings);
  if (typeof cleaned !== 'object' || cleaned === null) return {};
  const known = configSchema.shape as Record<string, unknown>;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(cleaned)) {
    if (!(key in known)) continue;
    if ((FILE_ONLY_CONFIG_KEYS as readonly string[]).includes(key)) {
      log(
        `anf-lint: ignoring the setting ${SETTINGS_SECTION}.${key}: it names files relative to .anf-lint.yaml; write it there`,
      );
      continue;
    }
    const parsed = configSchema.safeParse({ [key]: value });
    if (parsed.success) result[key] = (parsed.data as Record<string, unknown>)[key];
    else
      log(
        `anf-lint: ignoring the setting ${SETTINGS_SECTION}.${key}: ${parsed.error.issues.map((i) => `${i.path.join('.') || key}: ${i.message}`).join('; ')}`,
      );
  }
  return result as AnfLintConfig;
}

/** The file's configuration with the editor's on top; rule settings, prices and network merge per key. */
export function mergeConfig(file: AnfLintConfig, editor: AnfLintConfig): AnfLintConfig {
  const merged: AnfLintConfig = { ...file, ...editor };
  // Editors send a boolean's default (false) whether or not the user set it: either source saying yes wins.
  if (file.sapHanaBehindLoadBalancer || editor.sapHanaBehindLoadBalancer) merged.sapHanaBehindLoadBalancer = true;
  // behindAzureLoadBalancer: true from either wins; else the file's list of hosts (the editor's setting is a boolean).
  if (file.behindAzureLoadBalancer === true || editor.behindAzureLoadBalancer === true)
    merged.behindAzureLoadBalancer = true;
  else if (file.behindAzureLoadBalancer !== undefined || editor.behindAzureLoadBalancer !== undefined)
    merged.behindAzureLoadBalancer = Array.isArray(editor.behindAzureLoadBalancer)
      ? editor.behindAzureLoadBalancer
      : (file.behindAzureLoadBalancer ?? false);
  if (file.rules || editor.rules) merged.rules = { ...file.rules, ...editor.rules };
  if (file.network || editor.network) merged.network = { ...file.network, ...editor.network };
  if (file.nfsServers || editor.nfsServers) merged.nfsServers = { ...file.nfsServers, ...editor.nfsServers };
  if (file.prices || editor.prices) {
    merged.prices = {
      ...file.prices,
      ...editor.prices,
      ...(file.prices?.capacityPerGiBHour || editor.prices?.capacityPerGiBHour
        ? { capacityPerGiBHour: { ...file.prices?.capacityPerGiBHour, ...editor.prices?.capacityPerGiBHour } }
        : {}),
    };
  }
  return merged;
}

export function effectiveConfig(
  file: AnfLintConfig,
  editor: AnfLintConfig,
): { config: AnfLintConfig; resolved: ResolvedConfig } {
  const config = mergeConfig(file, editor);
  return { config, resolved: resolveConfig(config) };
}
