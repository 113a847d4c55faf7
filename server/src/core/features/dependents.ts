import { linkedTemplateUri } from '../iac/arm';
import type { ParsedFile } from '../workspace/parsedFile';
import { localModuleFolder } from '../iac/terraform';
import { bicepModuleUri } from '../iac/bicep';

/** What changed about a file, before and after (a file that lost its mounts still had them). */
export interface FileChange {
  readonly uri: string;
  readonly before?: ParsedFile;
  readonly after?: ParsedFile;
}

// A Terraform file with `module` blocks holds the volumes of the modules it calls once read with them.
const isManifest = (file: ParsedFile | undefined) =>
  file !== undefined &&
  (file.kind === 'manifest-yaml' ||
    file.kind === 'manifest-json' ||
    file.volumes.length > 0 ||
    (file.iac?.volumes.length ?? 0) > 0 ||
    (file.iac?.calls?.some((c) => c.local) ?? false));
const isTerraform = (file: ParsedFile | undefined) => file?.kind === 'terraform' || file?.kind === 'terraform-vars';
const isModular = (file: ParsedFile | undefined) =>
  isTerraform(file) || file?.kind === 'bicep' || file?.kind === 'arm-template';
/** What a module is: a Terraform folder, a Bicep file, an ARM template (linked by `templateLink`). */
const moduleOf = (file: Pick<ParsedFile, 'uri' | 'kind'>) =>
  file.kind === 'bicep' || file.kind === 'arm-template' ? file.uri : folderOf(file.uri);
const folderOf = (uri: string) => uri.slice(0, uri.lastIndexOf('/') + 1);
const TRIDENT_KINDS = new Set(['kubernetes', 'yaml-options', 'json-options']);
const isTridentProvider = (file: ParsedFile) =>
  TRIDENT_KINDS.has(file.kind) &&
  (file.source.text.includes('azure-netapp-files') || file.source.text.includes('csi.trident.netapp.io'));
const holdsClaims = (file: ParsedFile) =>
  TRIDENT_KINDS.has(file.kind) && file.source.text.includes('PersistentVolumeClaim');
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
  // terraform.tfvars changes the volumes of the other .tf files of the folder, and what reads them;
  // `module` blocks link folders: a module's change changes its callers' instances, a caller's
  // change what the module reports itself (values its callers set are theirs).
  // A parameters file gives values to the templates of its folder (workspace/parameterFiles.ts), and a template declares its parameters files' keys.
  const parameterSide = sides.find(
    (f) =>
      f?.kind === 'arm-parameters' || f?.kind === 'bicep-params' || f?.kind === 'arm-template' || f?.kind === 'bicep',
  );
  const parameterMates = parameterSide
    ? files.filter(
        (f) =>
          f.uri !== change.uri &&
          folderOf(f.uri) === folderOf(change.uri) &&
          (f.kind === 'arm-parameters' ||
            f.kind === 'bicep-params' ||
            (parameterSide.kind !== 'arm-template' &&
              parameterSide.kind !== 'bicep' &&
              (f.kind === 'arm-template' || f.kind === 'bicep'))),
      )
    : [];
  const changed = sides.find(isModular);
  const linked = changed ? linkedModules(change, changed, files) : undefined;
  const moduleMates = linked
    ? files.filter((f) => f.uri !== change.uri && isModular(f) && linked.has(moduleOf(f)))
    : [];
  // Trident claims take their class and backend from other files (workspace/tridentLinks.ts).
  const tridentSide = sides.some((f) => f !== undefined && isTridentProvider(f));
  const claimMates = tridentSide ? files.filter((f) => f.uri !== change.uri && holdsClaims(f)) : [];
  const manifestOrMounts =
    sides.some((f) => isManifest(f) || hasMounts(f)) || moduleMates.some(isManifest) || parameterMates.some(isManifest);
  const settings = sides.some(hasSettings);
  return files.filter((file) => {
    if (file.uri === change.uri) return false;
    if (moduleMates.includes(file) || parameterMates.includes(file) || claimMates.includes(file)) return true;
    if (manifestOrMounts) return isManifest(file) || hasMounts(file) || hasSettings(file);
    if (settings) return hasMounts(file) || hasSettings(file);
    return false;
  });
}

/**
 * The modules (Terraform folders, Bicep files) `module` blocks link to the changed file's, in
 * either direction, at any depth (its own included).
 */
function linkedModules(change: FileChange, changed: ParsedFile, files: readonly ParsedFile[]): Set<string> {
  const edges = new Map<string, Set<string>>();
  const link = (a: string, b: string) => {
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  };
  for (const file of [...files, ...(change.before ? [change.before] : [])]) {
    if (file.kind !== 'terraform' && file.kind !== 'bicep' && file.kind !== 'arm-template') continue;
    for (const call of file.iac?.calls ?? []) {
      if (!call.local || call.source === undefined) continue;
      const called =
        file.kind === 'bicep'
          ? bicepModuleUri(file.uri, call.source)
          : file.kind === 'arm-template'
            ? linkedTemplateUri(file.uri, call.source)
            : localModuleFolder(file.uri, call.source);
      if (!called) continue;
      link(moduleOf(file), called);
      link(called, moduleOf(file));
    }
  }
  const start = moduleOf({ uri: change.uri, kind: changed.kind });
  const reached = new Set([start]);
  const queue = [start];
  while (queue.length > 0) {
    for (const next of edges.get(queue.pop()!) ?? []) {
      if (reached.has(next)) continue;
      reached.add(next);
      queue.push(next);
    }
  }
  return reached;
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
  return (
    edit.removed.length === 0 &&
    edit.itemsTo === edit.itemsFrom &&
    before.source.lineCount === after.source.lineCount &&
    after.settings.length === 0 &&
    after.volumes.length === 0
  );
}
