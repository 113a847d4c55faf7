/** Client settings: section `anfLint`, pulled with `workspace/configuration` or pushed with `didChangeConfiguration`. */
import { DidChangeConfigurationNotification, type DidChangeConfigurationParams } from 'vscode-languageserver';
import { SETTINGS_SECTION } from '../settings';
import type { Session } from '../session';

export async function fetchSettings(session: Session): Promise<void> {
  if (!session.support.configuration) return;
  try {
    const [settings] = (await session.connection.workspace.getConfiguration([
      { section: SETTINGS_SECTION },
    ])) as unknown[];
    session.setEditorSettings(settings ?? {});
  } catch (error) {
    session.error(
      `anf-lint: could not read the ${SETTINGS_SECTION} settings: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export async function registerConfigurationChanges(session: Session): Promise<void> {
  if (!session.support.configurationChangeRegistration) return;
  await session.connection.client.register(DidChangeConfigurationNotification.type, { section: SETTINGS_SECTION });
}

export async function didChangeConfiguration(session: Session, params: DidChangeConfigurationParams): Promise<void> {
  // Clients that answer workspace/configuration are asked; the others send the settings along.
  if (session.support.configuration) {
    await fetchSettings(session);
    return;
  }
  const settings = (params.settings as Record<string, unknown> | null | undefined)?.[SETTINGS_SECTION];
  if (settings !== undefined) session.setEditorSettings(settings);
}
