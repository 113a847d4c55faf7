import { WORKLOADS, type WorkloadKind } from '../../facts';
import type { ManifestDocument, ManifestVolume } from '../../manifest/model';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import type { RuleContext } from '../../rules/rule';
import type { ResolvedConfig } from '../../config';
import type { ParsedFile } from '../../workspace/parsedFile';
import type { WorkloadSource, WorkspaceView } from '../../workspace/workspaceView';
import { effectiveOptions, type EffectiveOptions } from '../catalog';
import type { MountEntry } from '../model';
import { serverTarget, type ServerTarget } from './target';

/** Cheap `appliesTo` for rules that judge NFS mounts. */
export const hasNfsMounts = (file: ParsedFile): boolean => file.mounts.some((m) => m.isNfs);

export interface JudgedMount {
  readonly mount: MountEntry;
  readonly effective: EffectiveOptions;
}

/**
 * The file's NFS mounts with their effective options. Built once per parsed file and shared by
 * every mount rule (read-only): per-rule rebuilding meant a WeakMap look-up per mount per rule,
 * which dominated linting a large fstab.
 */
export function nfsMounts(context: RuleContext): readonly JudgedMount[] {
  const mounts = context.file.mounts;
  let judged = JUDGED.get(mounts);
  if (!judged) {
    judged = mounts.filter((m) => m.isNfs).map((mount) => ({ mount, effective: effectiveOptions(mount) }));
    JUDGED.set(mounts, judged);
  }
  return judged;
}

const JUDGED = new WeakMap<readonly MountEntry[], readonly JudgedMount[]>();

/** Parse problems of one code, reported as they are (ANF200, ANF201). */
export function reportProblems(context: RuleContext, code: string): void {
  for (const problem of context.file.problems) {
    if (problem.code !== code) continue;
    const { code: _code, ...finding } = problem;
    context.report(finding);
  }
}

/** A mount's workload in words for a message: "the `eda-tools` workload (from the `# anf:` annotation)". */
export function workloadWords(found: { workload: WorkloadKind; source: WorkloadSource }, short = false): string {
  const name = `the \`${found.workload}\` workload`;
  if (short) return name;
  switch (found.source) {
    case 'annotation':
      return `${name} (from the \`# anf:\` annotation)`;
    case 'manifest':
      return `${name} (from the manifest volume it reaches)`;
    case 'mount-path':
      return `${name} (from its mount point, by convention; \`# anf: workload=<kind>\` overrides it)`;
    default:
      return `${name} (the default in .anf-lint.yaml)`;
  }
}

/** A short name for a mount in messages: its mount point, else its source. */
export function mountName(mount: MountEntry): string {
  return mount.mountPointDecoded ?? mount.mountPoint ?? mount.source ?? 'this mount';
}

/** `1.5` → `1.5`, 150000 → `150K`: the seed's own way of writing its figures. */
export function thousands(value: number): string {
  return value >= 1000 && value % 1000 === 0 ? `${value / 1000}K` : String(value); // not a fact: thousands
}

/** The line number (1-based) of an offset in another file, for "line N of ..." messages. */
export function lineOf(context: RuleContext, uri: string, offset: number): number {
  const source = context.workspace.file(uri)?.source ?? context.file.source;
  return source.positionAt(offset).line + 1;
}


/** The positioned manifest volume behind a summary, for related information on its keys (`protocols`, `security`). */
export function manifestVolumeOf(context: RuleContext, volume: VolumeSummary): ManifestVolume | undefined {
  const manifest = context.workspace.file(volume.uri)?.manifest as ManifestDocument | undefined;
  for (const account of manifest?.accounts ?? []) {
    for (const pool of account.pools) {
      for (const candidate of pool.volumes) if (candidate.name?.span.start === volume.nameSpan.start) return candidate;
    }
  }
  return undefined;
}

/**
 * `workspace.workloadOf(mount)`, asked once per mount while the workspace's volumes and the
 * configuration stay the same: several mount rules ask it for every mount, and each answer
 * normalizes the server and export path again. A mount's answers depend on nothing else (its own
 * fields, the volumes, the configuration), and an edited fstab keeps its unchanged mounts
 * (workspace/lineReuse.ts), so their answers outlive the edit.
 */
export function workloadOfMount(context: RuleContext, mount: MountEntry): ReturnType<WorkspaceView['workloadOf']> {
  const answers = answersOf(WORKLOAD_ANSWERS, context);
  if (answers.has(mount)) return answers.get(mount);
  const found = context.workspace.workloadOf(mount);
  answers.set(mount, found);
  return found;
}

/** `workspace.volumeForMount(mount)`, asked once per mount and volume list (see workloadOfMount). */
export function volumeOfMount(context: RuleContext, mount: MountEntry): VolumeSummary | undefined {
  const answers = answersOf(VOLUME_ANSWERS, context);
  if (answers.has(mount)) return answers.get(mount);
  const found = context.workspace.volumeForMount(mount);
  answers.set(mount, found);
  return found;
}

/** What the mount's server is taken to be (`mounts/rules/target.ts`), asked once per mount, volume list and configuration. */
export function targetOfMount(context: RuleContext, mount: MountEntry): ServerTarget {
  const answers = answersOf(TARGET_ANSWERS, context);
  let found = answers.get(mount);
  if (!found) {
    found = serverTarget(mount, { volumes: () => context.workspace.volumes(), volumeForMount: (m) => volumeOfMount(context, m) }, context.config);
    answers.set(mount, found);
  }
  return found;
}

/** ANF advice applies: the server is ANF, known or assumed. */
export function onAnf(context: RuleContext, mount: MountEntry): boolean {
  return targetOfMount(context, mount).kind === 'anf';
}

/** " Server taken to be ANF (...).": said in messages whose advice holds only on ANF, when ANF is only assumed. */
export function assumedAnfWords(target: ServerTarget): string {
  return target.kind === 'anf' && !target.known ? ' Server taken to be ANF (the default; `nfsServers` in .anf-lint.yaml overrides it).' : '';
}

/**
 * Per volume list, then per configuration and workspace (a workload's default is the workspace's),
 * weakly per mount: mounts an edit replaced are dropped with their answers. Every rule asks for
 * every mount (a 10,000-line fstab: about a million questions), so the answers of the last
 * (volume list, configuration, workspace) asked about are at hand without the three look-ups.
 */
interface Answers<T> {
  readonly tree: WeakMap<readonly VolumeSummary[], WeakMap<ResolvedConfig, WeakMap<WorkspaceView, WeakMap<MountEntry, T>>>>;
  last?: { readonly volumes: readonly VolumeSummary[]; readonly config: ResolvedConfig; readonly workspace: WorkspaceView; readonly answers: WeakMap<MountEntry, T> };
}
const WORKLOAD_ANSWERS: Answers<ReturnType<WorkspaceView['workloadOf']>> = { tree: new WeakMap() };
const VOLUME_ANSWERS: Answers<VolumeSummary | undefined> = { tree: new WeakMap() };
const TARGET_ANSWERS: Answers<ServerTarget> = { tree: new WeakMap() };

function answersOf<T>(cache: Answers<T>, context: RuleContext): WeakMap<MountEntry, T> {
  const volumes = context.workspace.volumes();
  const last = cache.last;
  if (last && last.volumes === volumes && last.config === context.config && last.workspace === context.workspace) return last.answers;
  let byConfig = cache.tree.get(volumes);
  if (!byConfig) cache.tree.set(volumes, (byConfig = new WeakMap()));
  let byWorkspace = byConfig.get(context.config);
  if (!byWorkspace) byConfig.set(context.config, (byWorkspace = new WeakMap()));
  let answers = byWorkspace.get(context.workspace);
  if (!answers) byWorkspace.set(context.workspace, (answers = new WeakMap()));
  cache.last = { volumes, config: context.config, workspace: context.workspace, answers };
  return answers;
}

/** The NFS version to pin for a mount: its workload's (required, else preferred), else its volume's only version. */
export function versionToPin(context: RuleContext, mount: MountEntry): { version: '3' | '4.1'; why: string } | undefined {
  const found = workloadOfMount(context, mount);
  if (found) {
    const traits = WORKLOADS[found.workload].nfsVersion;
    const version = traits.requires ?? (traits.preferred === 'either' ? undefined : traits.preferred);
    if (version) return { version, why: `for ${workloadWords(found, true)}` };
  }
  const volume = volumeOfMount(context, mount);
  if (volume && volume.nfsVersions.length === 1) return { version: volume.nfsVersions[0]!, why: `volume \`${volume.name}\` serves NFSv${volume.nfsVersions[0]}` };
  return undefined;
}

// transportKey lives beside effectiveOptions, which caches both per mount.
export { transportKey } from '../catalog';
