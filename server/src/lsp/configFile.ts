/** Which documents are `.anf-lint.yaml` files (the parsing is the core's: core/configFile.ts). */
import { baseName } from '../core';
import { CONFIG_FILE_NAMES } from '../core/configFile';

export { CONFIG_FILE_NAMES };

export function isConfigFileUri(uri: string): boolean {
  return (CONFIG_FILE_NAMES as readonly string[]).includes(baseName(uri));
}
