import { resolve } from 'node:path';
import { detectFileKind, Workspace, type VolumeSummary } from '../../core';
import { decodeBytes, describeFailure, Project } from '../../core/project';
import { NodeEnvironment, toCorePath } from '../../node/nodeEnvironment';
import { MOUNT_STYLES, recommendedMountText, type MountStyle } from '../../core/recommend/mountLine';
import { displayPathOf } from '../files';
import { EXIT, UsageError, type CliIo } from '../io';
import { loadCliConfig } from '../lint';
import { parseOrUsage } from './shared';

export const MOUNT_USAGE = `Usage: anf-lint mount VOLUME [--manifest FILE] [--style fstab|command|systemd] [--config FILE]

Prints the recommended mount line for a manifest volume's workload. VOLUME is the volume's name,
or pool/volume or account/pool/volume when names repeat. Without --manifest, the manifests under
the current folder are searched.
`;

/** `anf-lint mount VOLUME`: the recommended mount line for a manifest volume. */
export async function runMount(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseOrUsage(args, {
    manifest: { type: 'string', short: 'm' },
    style: { type: 'string', short: 's' },
    config: { type: 'string', short: 'c' },
    help: { type: 'boolean', short: 'h' },
  }, true);
  if (values.help) {
    io.stdout.write(MOUNT_USAGE);
    return EXIT.ok;
  }
  if (positionals.length !== 1) throw new UsageError(`mount: name one volume (${positionals.length === 0 ? 'none given' : `got ${positionals.join(' ')}`}); see anf-lint mount --help`);
  const wanted = positionals[0]!;
  const style = (values.style ?? 'fstab') as MountStyle;
  if (!MOUNT_STYLES.includes(style)) throw new UsageError(`--style: "${values.style}" is not a style; use ${MOUNT_STYLES.join(', ')}`);

  const { resolved } = loadCliConfig({ ruleOverrides: {}, ...(values.config !== undefined ? { configPath: values.config } : {}) }, io.cwd, io);
  const workspace = new Workspace(resolved);
  const env = io.environment ?? new NodeEnvironment();
  if (values.manifest !== undefined) {
    const path = toCorePath(resolve(io.cwd, values.manifest));
    let text: string;
    try {
      text = decodeBytes(env.readFile(path)).text;
    } catch (error) {
      throw new UsageError(`--manifest: cannot read ${values.manifest} (${describeFailure(error)})`);
    }
    const detected = detectFileKind(path, text);
    const kind = detected === 'manifest-json' || detected === 'manifest-yaml' ? detected : path.toLowerCase().endsWith('.json') ? 'manifest-json' : 'manifest-yaml';
    workspace.set(env.uriOf(path), text, 0, kind);
  } else {
    const project = new Project(env, { cwd: toCorePath(io.cwd) });
    const found = project.discover(toCorePath(io.cwd));
    for (const path of found.paths) {
      const read = project.read(path, found.root);
      if (!read.ok) continue;
      const kind = detectFileKind(path, read.text);
      if (kind === 'manifest-yaml' || kind === 'manifest-json') workspace.set(env.uriOf(path), read.text);
    }
  }
  const volumes = workspace.volumes();
  const matches = volumes.filter((v) => matchesVolume(v, wanted));
  if (matches.length === 0) {
    const known = volumes.map(label).join(', ');
    throw new UsageError(`mount: no volume "${wanted}" in ${values.manifest ?? 'the manifests under this folder'}${known ? `; volumes: ${known}` : ' (no manifest volumes found)'}`);
  }
  if (matches.length > 1) throw new UsageError(`mount: "${wanted}" names ${matches.length} volumes (${matches.map(label).join(', ')}); write pool/volume or account/pool/volume`);
  const volume = matches[0]!;
  const { text, recommendation } = recommendedMountText(volume, style, resolved.defaultWorkload);
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
  const from = displayPathOf(new URL(volume.uri).pathname, io.cwd);
  io.stderr.write(`# ${label(volume)} (${from}), workload ${recommendation.workload}${volume.workload ? '' : ' (not set in the manifest)'}:\n`);
  for (const note of recommendation.notes) io.stderr.write(`#   ${note}\n`);
  return EXIT.ok;
}

function label(volume: VolumeSummary): string {
  return `${volume.account}/${volume.pool}/${volume.name}`;
}

function matchesVolume(volume: VolumeSummary, wanted: string): boolean {
  const parts = wanted.split('/');
  if (parts.length === 1) return volume.name === wanted;
  if (parts.length === 2) return `${volume.pool}/${volume.name}` === wanted;
  return label(volume) === wanted;
}
