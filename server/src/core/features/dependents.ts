import type { ParsedFile } from '../workspace/parsedFile';

/** What changed about a file, before and after (a file that lost its mounts still had them). */
export interface FileChange {
  readonly uri: string;
  readonly before?: ParsedFile;
  readonly after?: ParsedFile;
}

const isManifest = (file: ParsedFile | undefined) => file !== undefined && (file.kind === 'manifest-yaml' || file.kind === 'manifest-json' || file.volumes.length > 0 || (file.iac?.volumes.length ?? 0) > 0);
const isTerraform = (file: ParsedFile | undefined) => file?.kind === 'terraform' || file?.kind === 'terraform-vars';
const folderOf = (uri: string) => uri.slice(0, uri.lastIndexOf('/') + 1);
const hasMounts = (file: ParsedFile | undefined) => file !== undefined && file.mounts.length > 0;
const hasSettings = (file: ParsedFile | undefined) => file !== undefined && file.settings.length > 0;

/**
 * Which other files must be checked again when one changes. Rules read across files through the
 * WorkspaceView: mount rules read the manifest volume a mount reaches and the other mounts of the
 * same server; kernel rules read the mounts (slot tables sized for nconnect), the manifests
 * (workloads) and the settings of the other files (load order); manifest rules read the mounts that
 * reach their volumes and the other manifests. So a manifest or mount change re-checks every file
 * with a manifest, mounts or kernel settings, and a change of kernel settings re-checks the files
 * with mounts or settings. A file with none of these reads nothing of the others.
 */
export function dependentsOf(change: FileChange, files: readonly ParsedFile[]): ParsedFile[] {
  if (sameForOthers(change)) return [];
  const sides = [change.before, change.after];
  if (sides.some((f) => f?.kind === 'anf-lint-config')) return files.filter((f) => f.uri !== change.uri);
  // A Terraform module is read as one (workspace/terraformModules.ts): a change of variables.tf or
  // terraform.tfvars changes the volumes of the other .tf files of the folder, and what reads them.
  const moduleMates = sides.some(isTerraform) ? files.filter((f) => f.uri !== change.uri && isTerraform(f) && folderOf(f.uri) === folderOf(change.uri)) : [];
  const manifestOrMounts = sides.some((f) => isManifest(f) || hasMounts(f)) || moduleMates.some(isManifest);
  const settings = sides.some(hasSettings);
  return files.filter((file) => {
    if (file.uri === change.uri) return false;
    if (moduleMates.includes(file)) return true;
    if (manifestOrMounts) return isManifest(file) || hasMounts(file) || hasSettings(file);
    if (settings) return hasMounts(file) || hasSettings(file);
    return false;
  });
}

/**
 * An edit that other files cannot see: re-read line by line (workspace/lineReuse.ts) without
 * replacing any mount (a comment or a blank line typed in), and with the same number of lines, so
 * that what other files' findings say of this one (its mounts, their lines) is unchanged.
 */
function sameForOthers(change: FileChange): boolean {
  const { before, after } = change;
  const edit = after?.lineEdit;
  if (!before || !after || !edit || before.kind !== after.kind) return false;
  return edit.removed.length === 0 && edit.itemsTo === edit.itemsFrom && before.source.lineCount === after.source.lineCount && after.settings.length === 0 && after.volumes.length === 0;
}
