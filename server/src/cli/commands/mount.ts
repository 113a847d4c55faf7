import type { InventoryVolume } from '../../core/estate/inventory';
import { MOUNT_STYLES, recommendedMountText, type MountStyle } from '../../core/recommend/mountLine';
import { displayPathOf } from '../files';
import { EXIT, UsageError, type CliIo } from '../io';
import { loadIacReaders } from '../iacReaders';
import { loadCliConfig, openTargets } from '../lint';
import { inventoryOfRun } from './estate';
import { parseOrUsage, wroteHelp } from './shared';

export const MOUNT_USAGE = `Usage: anf-lint mount VOLUME [--manifest FILE] [--style fstab|command|systemd] [--config FILE]

Prints the recommended mount line for a volume's workload. VOLUME is the volume's name (or its
address when the name is unknown), or pool/volume or account/pool/volume when names repeat. The
volumes are the estate's (\`anf-lint estate\`): the manifests and infrastructure code (Terraform,
Bicep, ARM, az) under the current folder, or only the file --manifest names.
`;

/** `anf-lint mount VOLUME`: the recommended mount line for a manifest volume. */
export async function runMount(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOrUsage(
    args,
    {
      manifest: { type: 'string', short: 'm' },
      style: { type: 'string', short: 's' },
      config: { type: 'string', short: 'c' },
    },
    true,
  );
  if (wroteHelp(values, MOUNT_USAGE, io)) return EXIT.ok;
  if (positionals.length !== 1)
    throw new UsageError(
      `mount: name one volume (${positionals.length === 0 ? 'none given' : `got ${positionals.join(' ')}`}); see anf-lint mount --help`,
    );
  const wanted = positionals[0]!;
  const style = (values.style ?? 'fstab') as MountStyle;
  if (!MOUNT_STYLES.includes(style))
    throw new UsageError(`--style: "${values.style}" is not a style; use ${MOUNT_STYLES.join(', ')}`);

  const { resolved } = loadCliConfig(
    { ruleOverrides: {}, ...(values.config !== undefined ? { configPath: values.config } : {}) },
    io.cwd,
    io,
  );
  // The whole estate, as the editor reads it: manifests and infrastructure code (Terraform, Bicep,
  // ARM, az), each volume once (estate inventory); --manifest narrows it to one file.
  await loadIacReaders(io);
  const { project, run, errors } = await openTargets(
    {
      patterns: values.manifest !== undefined ? [values.manifest] : [],
      ruleOverrides: {},
      ...(values.config !== undefined ? { configPath: values.config } : {}),
    },
    io,
  );
  if (values.manifest !== undefined && errors.length > 0)
    throw new UsageError(`--manifest: cannot read ${values.manifest} (${errors.join('; ')})`);
  const fileOf = (uri: string) => displayPathOf(project.env.pathOf(uri) ?? uri, io.cwd);
  const volumes = inventoryOfRun(run).volumes;
  const where = (v: InventoryVolume) => `${fileOf(v.uri)}:${v.line}`;
  const matches = volumes.filter((v) => matchesVolume(v, wanted));
  if (matches.length === 0) {
    const known = [...new Set(volumes.map(label))].join(', ');
    throw new UsageError(
      `mount: no volume "${wanted}" in ${values.manifest ?? 'the manifests and infrastructure code under this folder'}${known ? `; volumes: ${known}` : ' (no volumes found)'}`,
    );
  }
  if (matches.length > 1) {
    const candidates = [...new Set(matches.map((v) => `${label(v)} (${where(v)}, ${v.source})`))];
    throw new UsageError(
      `mount: "${wanted}" names ${candidates.length} volumes:\n${candidates.map((c) => `  ${c}`).join('\n')}\nwrite pool/volume or account/pool/volume, or name the file with --manifest FILE`,
    );
  }
  const chosen = matches[0]!;
  const volume = chosen.summary;
  if (!volume)
    throw new UsageError(
      `mount: ${label(chosen)} (${where(chosen)}) has values anf-lint cannot evaluate: ${chosen.unknown.join('; ')}`,
    );
  const { text, recommendation } = recommendedMountText(volume, style, resolved.defaultWorkload);
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  io.stderr.write(
    `# ${label(chosen)} (${where(chosen)}), workload ${recommendation.workload}${volume.workload ? '' : ` (not set in the ${chosen.source === 'manifest' ? 'manifest' : 'code'})`}:\n`,
  );
  for (const note of recommendation.notes) io.stderr.write(`#   ${note}\n`);
  return EXIT.ok;
}

function label(volume: InventoryVolume): string {
  return `${volume.account ?? '?'}/${volume.pool ?? '?'}/${volume.name}`;
}

function matchesVolume(volume: InventoryVolume, wanted: string): boolean {
  const parts = wanted.split('/');
  if (parts.length === 1) return volume.name === wanted;
  if (parts.length === 2) return `${volume.pool}/${volume.name}` === wanted;
  return label(volume) === wanted;
}
