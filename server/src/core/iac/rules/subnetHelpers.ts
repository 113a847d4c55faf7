import type { ParsedFile } from '../../workspace/parsedFile';
import type { RuleContext } from '../../rules/rule';
import type { IacVolume } from '../estate';
import { linksTo, networkFeaturesOf, type IacSubnet, type IacSubnetLink, type NetworkFeaturesKnown } from '../subnets';

/** Shared by ANF414-ANF416: which volumes of the workspace are created in a subnet, and with which network features. */

function folderOf(uri: string): string {
  const slash = uri.lastIndexOf('/');
  return slash < 0 ? '' : uri.slice(0, slash);
}

/**
 * Whether a link written in `from` can name by symbol a resource of `to`: the same Bicep or ARM
 * file, or the same Terraform module folder (its files share one namespace).
 */
function sameScope(from: ParsedFile, to: ParsedFile): boolean {
  if (from.uri === to.uri) return true;
  return (
    from.iac?.language === 'terraform' && to.iac?.language === 'terraform' && folderOf(from.uri) === folderOf(to.uri)
  );
}

export interface LinkedVolume {
  readonly volume: IacVolume;
  readonly file: ParsedFile;
  readonly features?: NetworkFeaturesKnown;
}

/**
 * The volumes anywhere in the workspace whose subnet reference names `subnet` (declared in `file`).
 * A reference by names (an ID) that several subnets of the workspace match (two environments
 * declaring the same names) names the one of its own folder; if none is there and several remain,
 * it names none: which one is meant is unknown.
 */
export function volumesInSubnet(context: RuleContext, file: ParsedFile, subnet: IacSubnet): LinkedVolume[] {
  const found: LinkedVolume[] = [];
  for (const other of context.workspace.estateFiles()) {
    for (const volume of other.iac?.volumes ?? []) {
      if (!volume.subnet || !linksTo(volume.subnet, subnet, sameScope(other, file))) continue;
      if (volume.subnet.symbol === undefined && !onlyMatch(context, other, volume.subnet, file, subnet)) continue;
      const features = networkFeaturesOf(volume);
      found.push({ volume, file: other, ...(features ? { features } : {}) });
    }
  }
  return found;
}

/** Whether `subnet` (in `subnetFile`) is the one subnet a by-names link written in `from` means. */
function onlyMatch(
  context: RuleContext,
  from: ParsedFile,
  link: IacSubnetLink,
  subnetFile: ParsedFile,
  subnet: IacSubnet,
): boolean {
  const matches = subnetsLinked(context, from, link);
  if (matches.length <= 1) return true;
  const near = matches.filter((m) => folderOf(m.file.uri) === folderOf(from.uri));
  if (near.length > 0) return near.some((m) => m.subnet === subnet && m.file.uri === subnetFile.uri);
  return false;
}

/** The subnets of the workspace a link written in `file` names (an NSG association's `subnet_id`). */
export function subnetsLinked(
  context: RuleContext,
  file: ParsedFile,
  link: IacSubnetLink,
): { subnet: IacSubnet; file: ParsedFile }[] {
  const found: { subnet: IacSubnet; file: ParsedFile }[] = [];
  for (const other of context.workspace.estateFiles())
    for (const subnet of other.iac?.subnets ?? [])
      if (linksTo(link, subnet, sameScope(file, other))) found.push({ subnet, file: other });
  return found;
}

export function volumeName(v: IacVolume): string {
  return `\`${v.name?.value ?? v.address ?? v.symbol}\``;
}

/** "volumes `a` and `b`", at most four named. */
export function volumeList(volumes: readonly IacVolume[]): string {
  const names = volumes.slice(0, 4).map(volumeName);
  const more = volumes.length > 4 ? ` and ${volumes.length - 4} more` : '';
  const joined = names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  return `${volumes.length === 1 ? 'volume' : 'volumes'} ${joined}${more}`;
}

export function subnetName(s: IacSubnet): string {
  return `\`${s.name?.value ?? s.address ?? s.symbol}\``;
}
