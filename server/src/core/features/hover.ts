import { moduleCallHover, unknownValueHover, valueOriginNote } from '../iac/hover';
import type { ResolvedConfig } from '../config';
import { WORKLOADS, type NfsVersionPreference, type WorkloadKind } from '../facts';
import type { Located, ManifestDocument } from '../manifest/model';
import { describeOption, effectiveOptions, findOption, usesKerberos } from '../mounts/catalog';
import type { MountEntry, MountOption } from '../mounts/model';
import { describeMountTarget, describeServer } from '../mounts/rules/target';
import { advisedNfsVersion } from '../mounts/rules/versionAdvice';
import { recommendedMountOptions } from '../recommend/mountLine';
import { describeKey } from '../sysctl/catalog';
import type { Span } from '../text/sourceText';
import { formatMiBps, formatNumber, formatSizeIn, formatUsd, GiB, MiB, type Rate, type Size } from '../units/units';
import { baseName } from '../fileKind';
import type { WorkspaceView } from '../workspace/workspaceView';
import { manifestKeyHover } from './manifestKeyHover';
import { mountstatsHover, perftestHover } from './perftest';
import { figuresOf, manifestVolumeOf, poolMarkdown, volumeMarkdown, volumesOf, within } from './manifestIndex';

/** A hover: Markdown and the text it is about. The LSP wraps it in MarkupContent. */
export interface CoreHover {
  readonly markdown: string;
  readonly span: Span;
}

/**
 * What anf-lint has to say about the text at `offset`: a manifest volume, pool or account, a size
 * or rate literal, a mount option, a mount source, a kernel setting. Figures first, short.
 */
export function computeHover(
  workspace: WorkspaceView,
  uri: string,
  offset: number,
  config: ResolvedConfig,
): CoreHover | undefined {
  const found = hoverAt(workspace, uri, offset, config);
  // LSP: a hover's range is the text it is about, around the position asked. A figure shown for a
  // resource's first line names the resource by its name, which may lie lines away (or in another
  // file): then the hover is about the position's own word.
  if (!found || (found.span.start <= offset && offset <= found.span.end)) return found;
  return { ...found, span: { start: offset, end: offset } };
}

function hoverAt(workspace: WorkspaceView, uri: string, offset: number, config: ResolvedConfig): CoreHover | undefined {
  const file = workspace.file(uri);
  if (!file) return undefined;
  if (file.iac) {
    // Infrastructure code: a value anf-lint could not evaluate says so.
    const hover = unknownValueHover(file.iac, offset) ?? moduleCallHover(file.iac, offset);
    if (hover) return hover;
  }
  if (file.manifest) {
    // A key other than `name` (whose hover is the volume's, pool's or account's figures): what it means.
    const key = manifestKeyHover(file.kind, file.source.text, offset);
    if (key && !/^"?name"?$/.test(file.source.text.slice(key.span.start, key.span.end))) return key;
    const hover = manifestHover(workspace, uri, file.manifest, offset, config);
    // Terraform: a value set through variables says where they got it (a .tfvars file, a default).
    const origin = file.iac ? valueOriginNote(file.iac, offset) : undefined;
    if (hover) return origin ? { ...hover, markdown: `${hover.markdown}\n\n${origin}` } : hover;
  }
  if (file.perftest) return perftestHover(workspace, file, offset, config);
  if (file.mountstats) return mountstatsHover(file, offset);
  for (const mount of file.mounts) {
    if (!within(mount.span, offset)) continue;
    const hover = mountHover(workspace, mount, offset, config);
    if (hover) return hover;
  }
  for (const setting of file.settings) {
    if (within(setting.keySpan, offset) || within(setting.valueSpan, offset)) {
      const markdown = describeKey(setting.key, { value: setting.value, rttSeconds: config.rttSeconds });
      if (markdown) return { markdown, span: within(setting.keySpan, offset) ? setting.keySpan : setting.valueSpan };
      return {
        markdown: `**${setting.key}**: not in anf-lint's catalog of NFS-related kernel settings.`,
        span: setting.keySpan,
      };
    }
  }
  return undefined;
}

// ---- manifests ---------------------------------------------------------------------------

function sizeMarkdown(size: Size, extra?: string): string {
  const bytes = size.bytes;
  const binary = (['GiB', 'TiB', 'MiB'] as const)
    .filter((unit) => unit !== size.unit)
    .map((unit) => formatSizeIn(bytes, unit, unit === 'TiB' ? 4 : 2));
  const decimal = `${formatNumber(bytes / 1e9, 2)} GB = ${formatNumber(bytes / 1e12, 3)} TB`; // not a fact: SI prefixes
  return [
    `**${formatNumber(size.amount, 4)} ${size.unit}** = ${binary.join(' = ')}`,
    '',
    `${decimal} (decimal) · ${formatNumber(bytes, 0)} bytes`,
    ...(extra ? ['', extra] : []),
  ].join('\n');
}

function rateMarkdown(rate: Rate): string {
  const mibps = rate.bytesPerSecond / MiB;
  const gbps = (rate.bytesPerSecond * 8) / 1e9; // not a fact: bits per byte and SI giga
  return [
    `**${formatNumber(rate.amount, 4)} ${rate.unit}** = ${formatMiBps(mibps)} = ${formatNumber(mibps / 1024, 3)} GiB/s`,
    '',
    `${formatNumber(gbps, 2)} Gbit/s on the wire (before protocol overhead)`,
  ].join('\n');
}

function literal<T>(value: Located<T> | undefined, offset: number): value is Located<T> {
  return value !== undefined && within(value.span, offset);
}

function manifestHover(
  workspace: WorkspaceView,
  uri: string,
  manifest: ManifestDocument,
  offset: number,
  config: ResolvedConfig,
): CoreHover | undefined {
  const figures = figuresOf(manifest, config);
  for (const at of volumesOf(manifest)) {
    const { volume } = at;
    if (!within(volume.span, offset)) continue;
    const volumeFigures = figures.volume(volume);
    if (literal(volume.quota, offset)) {
      const t = volumeFigures?.throughput;
      return {
        markdown: sizeMarkdown(
          volume.quota.value,
          t ? `Throughput limit at this quota: **${formatMiBps(t.mibps)}**` : undefined,
        ),
        span: volume.quota.span,
      };
    }
    if (literal(volume.throughput, offset))
      return { markdown: rateMarkdown(volume.throughput.value), span: volume.throughput.span };
    const req = volume.requirements;
    if (literal(req?.capacity, offset)) return { markdown: sizeMarkdown(req.capacity.value), span: req.capacity.span };
    if (literal(req?.blockSize, offset))
      return { markdown: sizeMarkdown(req.blockSize.value), span: req.blockSize.span };
    if (literal(req?.throughput, offset))
      return { markdown: rateMarkdown(req.throughput.value), span: req.throughput.span };
    // Anywhere else on the volume's head (its name, or the first line of the item): its figures.
    if (within(volume.name?.span, offset) || within(volume.headSpan, offset) || within(volume.name?.keySpan, offset)) {
      return {
        markdown: volumeMarkdown(at, volumeFigures) + mountedBy(workspace, uri, volume.name?.span.start),
        span: volume.name?.span ?? volume.headSpan,
      };
    }
  }
  for (const account of manifest.accounts) {
    for (const pool of account.pools) {
      if (!within(pool.span, offset)) continue;
      if (literal(pool.size, offset)) return { markdown: sizeMarkdown(pool.size.value), span: pool.size.span };
      if (literal(pool.throughput, offset))
        return { markdown: rateMarkdown(pool.throughput.value), span: pool.throughput.span };
      if (
        within(pool.name?.span, offset) ||
        within(pool.headSpan, offset) ||
        within(pool.name?.keySpan, offset) ||
        within(pool.serviceLevel?.span, offset)
      ) {
        return { markdown: poolMarkdown(pool, figures.pool(pool)), span: pool.name?.span ?? pool.headSpan };
      }
    }
    if (within(account.name?.span, offset) || within(account.headSpan, offset)) {
      const pools = account.pools.map((p) => figures.pool(p)).filter((p) => p !== undefined);
      const cost = pools.reduce((sum, p) => sum + (p.monthlyCost?.totalUsd ?? 0), 0);
      const volumes = pools.reduce((sum, p) => sum + p.volumeCount, 0);
      const throughput = pools.reduce((sum, p) => sum + p.usedMiBps, 0);
      return {
        markdown: [
          `**NetApp account ${account.name?.value ?? '?'}**`,
          '',
          `- ${account.pools.length} capacity pools, ${volumes} volumes, ${formatMiBps(throughput)} in total`,
          `- Monthly cost: **${formatUsd(cost)}**`,
        ].join('\n'),
        span: account.name?.span ?? account.headSpan,
      };
    }
  }
  return undefined;
}

/** "Mounted by" line for a volume hover: the mounts in the workspace that reach it. */
function mountedBy(workspace: WorkspaceView, uri: string, nameStart: number | undefined): string {
  if (nameStart === undefined) return '';
  const summary = workspace.volumes().find((v) => v.uri === uri && v.nameSpan.start === nameStart);
  if (!summary) return '';
  const mounts = workspace.mountsOfVolume(summary);
  if (mounts.length === 0) return '\n- Mounted by: no mount in this workspace';
  const shown = mounts
    .slice(0, MOUNTS_SHOWN)
    .map(
      (m) =>
        `\`${m.mountPoint ?? m.source ?? '?'}\` (${baseName(m.uri)} line ${(workspace.file(m.uri)?.source.positionAt(m.span.start).line ?? 0) + 1})`,
    );
  return `\n- Mounted by: ${shown.join(', ')}${mounts.length > MOUNTS_SHOWN ? ` and ${mounts.length - MOUNTS_SHOWN} more` : ''}`;
}

const MOUNTS_SHOWN = 3;

// ---- mounts ------------------------------------------------------------------------------

function mountWorkload(workspace: WorkspaceView, mount: MountEntry): { workload: WorkloadKind; assumed: boolean } {
  const known = workspace.workloadOf(mount);
  return known ? { workload: known.workload, assumed: false } : { workload: 'general', assumed: true };
}

/** ANF's recommendation for an option's group, for the mount's workload and NFS version. */
function recommendationLine(workspace: WorkspaceView, mount: MountEntry, option: MountOption): string | undefined {
  const spec = findOption(option.name);
  if (!spec || spec.scope !== 'nfs') return undefined;
  const { workload, assumed } = mountWorkload(workspace, mount);
  const volume = workspace.volumeForMount(mount);
  const written = effectiveOptions(mount).version;
  const writtenVersion: NfsVersionPreference | undefined =
    written?.major === 3 ? '3' : written?.major === 4 ? '4.1' : undefined;
  // The version: the one decision ANF220 and ANF224 make on the same token (mounts/rules/versionAdvice.ts).
  const advice = advisedNfsVersion({
    workload,
    ...(writtenVersion ? { written: writtenVersion } : {}),
    ...(volume ? { volume } : {}),
    kerberos: usesKerberos(effectiveOptions(mount)),
  });
  // Other options are advised for the version written: the hover on `rsize` is not the place to change it.
  const onVersion = spec.group === 'vers' || spec.group === 'minorversion';
  const version = onVersion ? advice.version : (writtenVersion ?? advice.version);
  const { options } = recommendedMountOptions(workload, version, volume?.kerberos ?? false);
  const match = options.find((o) => findOption(o.split('=')[0]!)?.group === spec.group);
  const who = `${WORKLOADS[workload].title}${assumed ? ' (no workload known; annotate with `# anf: workload=<kind>`)' : ''}`;
  const why = onVersion ? ` (${advice.because})` : '';
  return match
    ? `ANF recommendation for ${who}: \`${match}\`${why}`
    : `Not part of ANF's recommended options for ${who}.`;
}

function mountHover(
  workspace: WorkspaceView,
  mount: MountEntry,
  offset: number,
  config: ResolvedConfig,
): CoreHover | undefined {
  for (const option of mount.options) {
    if (!within(option.span, offset)) continue;
    const described = describeOption(option.name);
    const recommendation = recommendationLine(workspace, mount, option);
    const markdown = described
      ? [described, ...(recommendation ? ['', recommendation] : [])].join('\n')
      : `\`${option.name}\`: not a mount option anf-lint knows.`;
    return { markdown, span: option.span };
  }
  if (within(mount.sourceSpan, offset)) {
    const summary = workspace.volumeForMount(mount);
    // What the server was taken to be and why (core/mounts/rules/target.ts).
    const described = describeServer(mount, workspace, config);
    // Where no option is written and the platform decides them (a Kubernetes inline NFS volume).
    const server = mount.optionsNote ? `${described}\n\n${mount.optionsNote}` : described;
    if (!summary) {
      return {
        markdown: `**${mount.source ?? 'This mount'}** reaches no volume of the sizing manifests in this workspace (matched by mount target and export path, then by client mount path).\n\n${server}`,
        span: mount.sourceSpan!,
      };
    }
    const found = manifestVolumeOf(workspace, summary, config);
    const figures = found
      ? volumeMarkdown(found.at, found.figures)
      : `**Volume ${summary.account}/${summary.pool}/${summary.name}** · ${summary.serviceLevel}\n\n- Throughput limit: **${formatMiBps(summary.throughputMiBps)}**\n- Quota: ${formatSizeIn(summary.quotaGiB * GiB, 'TiB')}`;
    // What the link itself means (core/mounts/rules/target.ts): workload source, NFS versions served, a mismatch.
    const target = describeMountTarget(mount, workspace);
    return {
      markdown: `${target ? `${figures}\n\n${target.markdown}` : figures}\n\n${server}`,
      span: mount.sourceSpan!,
    };
  }
  return undefined;
}
