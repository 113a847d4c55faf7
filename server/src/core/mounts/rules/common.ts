import { WORKLOADS, type WorkloadKind } from '../../facts';
import type { ManifestDocument, ManifestVolume } from '../../manifest/model';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import type { RuleContext } from '../../rules/rule';
import type { ResolvedConfig } from '../../config';
import type { ParsedFile } from '../../workspace/parsedFile';
import type { WorkloadSource, WorkspaceView } from '../../workspace/workspaceView';
import type { MountEntry } from '../model';
import { JudgedMount, judgedMountsOf } from '../judged';
import { mountTypeTarget, targetsOfServer, volumeTarget, type ServerTarget, type ServerTargets } from './target';

/** Cheap `appliesTo` for rules that judge NFS mounts. */
export const hasNfsMounts = (file: ParsedFile): boolean => file.mounts.some((m) => m.isNfs);

export { JudgedMount };

/** The file's NFS mounts with their effective options (`judgedMountsOf`). */
export function nfsMounts(context: RuleContext): readonly JudgedMount[] {
  return judgedMountsOf(context.file.mounts);
}

/** The mount's type is `nfs4` (`-t nfs4`, or an `fstype=nfs4` option): a loop, not a closure per mount. */
export function isNfs4Type(mount: MountEntry): boolean {
  if (mount.fsType === 'nfs4') return true;
  const options = mount.options;
  for (let i = 0; i < options.length; i++) {
    const option = options[i]!;
    if (option.name === 'fstype' && option.value === 'nfs4') return true;
  }
  return false;
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
  return value >= 1000 && value % 1000 === 0 ? `${value / 1000}K` : String(value);
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

type Workload = ReturnType<WorkspaceView['workloadOf']>;

/** A mount, or its record from `nfsMounts` (which finds its answers without a look-up). */
export type MountRef = MountEntry | JudgedMount;

/**
 * One mount's answers about the workspace, each worked out when first asked: `undefined` not
 * asked yet, `null` asked and none.
 */
class MountAnswers {
  target: ServerTarget | undefined = undefined;
  workload: Workload | null = null;
  workloadAsked = false;
  volume: VolumeSummary | null | undefined = undefined;
}

/**
 * One workspace state as the mount answers see it: the volume list, the configuration and the
 * workspace (a workload's default is the workspace's). Its answers are kept weakly per mount
 * (mounts an edit replaced are dropped with them; an edited fstab keeps its unchanged mounts,
 * workspace/lineReuse.ts, so their answers outlive the edit), and the parts of a target that depend
 * on the server name alone once per server name.
 */
interface AnswerState {
  readonly volumes: readonly VolumeSummary[];
  readonly config: ResolvedConfig;
  readonly workspace: WorkspaceView;
  readonly byMount: WeakMap<MountEntry, MountAnswers>;
  readonly byServer: Map<string, ServerTargets>;
  readonly byVolume: Map<VolumeSummary, ServerTarget>;
}

/** States by volume list, then configuration, then workspace; the last one asked about at hand without the three look-ups. */
const STATES = new WeakMap<readonly VolumeSummary[], WeakMap<ResolvedConfig, WeakMap<WorkspaceView, AnswerState>>>();
let lastState: AnswerState | undefined;
const SERVERS_KEPT = 4096; // not a fact: a cache bound, far above the servers of a real estate

function stateOf(context: RuleContext): AnswerState {
  const volumes = context.workspace.volumes();
  const last = lastState;
  if (last && last.volumes === volumes && last.config === context.config && last.workspace === context.workspace)
    return last;
  let byConfig = STATES.get(volumes);
  if (!byConfig) STATES.set(volumes, (byConfig = new WeakMap()));
  let byWorkspace = byConfig.get(context.config);
  if (!byWorkspace) byConfig.set(context.config, (byWorkspace = new WeakMap()));
  let state = byWorkspace.get(context.workspace);
  if (!state) {
    state = {
      volumes,
      config: context.config,
      workspace: context.workspace,
      byMount: new WeakMap(),
      byServer: new Map(),
      byVolume: new Map(),
    };
    byWorkspace.set(context.workspace, state);
  }
  lastState = state;
  return state;
}

function answersOf(context: RuleContext, ref: MountRef): MountAnswers {
  const state = stateOf(context);
  if (ref instanceof JudgedMount) {
    if (ref.answersState === state) return ref.answers as MountAnswers;
    const answers = answersIn(state, ref.mount);
    ref.answersState = state;
    ref.answers = answers;
    return answers;
  }
  return answersIn(state, ref);
}

function answersIn(state: AnswerState, mount: MountEntry): MountAnswers {
  let answers = state.byMount.get(mount);
  if (!answers) {
    answers = new MountAnswers();
    state.byMount.set(mount, answers);
  }
  return answers;
}

const mountOf = (ref: MountRef): MountEntry => (ref instanceof JudgedMount ? ref.mount : ref);

/**
 * `workspace.workloadOf(mount)`, asked once per mount while the workspace's volumes and the
 * configuration stay the same: several mount rules ask it for every mount.
 */
export function workloadOfMount(context: RuleContext, ref: MountRef): Workload {
  const answers = answersOf(context, ref);
  if (!answers.workloadAsked) {
    answers.workload = context.workspace.workloadOf(mountOf(ref)) ?? null;
    answers.workloadAsked = true;
  }
  return answers.workload ?? undefined;
}

/** `workspace.volumeForMount(mount)`, asked once per mount and workspace state (see workloadOfMount). */
export function volumeOfMount(context: RuleContext, ref: MountRef): VolumeSummary | undefined {
  const answers = answersOf(context, ref);
  if (answers.volume === undefined) answers.volume = context.workspace.volumeForMount(mountOf(ref)) ?? null;
  return answers.volume ?? undefined;
}

/**
 * What the mount's server is taken to be (`serverTarget`, mounts/rules/target.ts), asked once per
 * mount and workspace state; what the server name says is worked out once per name, and mounts of
 * a server share one answer.
 */
export function targetOfMount(context: RuleContext, ref: MountRef): ServerTarget {
  const answers = answersOf(context, ref);
  if (answers.target) return answers.target;
  const mount = mountOf(ref);
  let target = mountTypeTarget(mount);
  if (!target) {
    const state = stateOf(context);
    const written = mount.server ?? '';
    let byServer = state.byServer.get(written);
    if (!byServer) {
      if (state.byServer.size >= SERVERS_KEPT) state.byServer.clear();
      byServer = targetsOfServer(mount.server, state.volumes, context.config);
      state.byServer.set(written, byServer);
    }
    target = byServer.named;
    if (!target) {
      const volume = volumeOfMount(context, ref);
      if (volume) {
        target = state.byVolume.get(volume);
        if (!target) state.byVolume.set(volume, (target = volumeTarget(volume)));
      } else target = byServer.otherwise;
    }
  }
  answers.target = target;
  return target;
}

/** ANF advice applies: the server is ANF, known or assumed. */
export function onAnf(context: RuleContext, ref: MountRef): boolean {
  return targetOfMount(context, ref).kind === 'anf';
}

/** " Server taken to be ANF (...).": said in messages whose advice holds only on ANF, when ANF is only assumed. */
export function assumedAnfWords(target: ServerTarget): string {
  return target.kind === 'anf' && !target.known
    ? ' Server taken to be ANF (the default; `nfsServers` in .anf-lint.yaml overrides it).'
    : '';
}

/** The NFS version to pin for a mount: its workload's (required, else preferred), else its volume's only version. */
export function versionToPin(context: RuleContext, ref: MountRef): { version: '3' | '4.1'; why: string } | undefined {
  const found = workloadOfMount(context, ref);
  if (found) {
    const traits = WORKLOADS[found.workload].nfsVersion;
    const version = traits.requires ?? (traits.preferred === 'either' ? undefined : traits.preferred);
    if (version) return { version, why: `for ${workloadWords(found, true)}` };
  }
  const volume = volumeOfMount(context, ref);
  if (volume && volume.nfsVersions.length === 1)
    return { version: volume.nfsVersions[0]!, why: `volume \`${volume.name}\` serves NFSv${volume.nfsVersions[0]}` };
  return undefined;
}

// transportKey lives beside effectiveOptions, which caches both per mount.
export { transportKey } from '../catalog';
