import { lazyFinding } from '../../diagnostics';
import { defineRule, type RuleContext } from '../../rules/rule';
import { baseName } from '../../fileKind';
import { mountPathMismatch, VolumeIndex } from '../../workspace/links';
import type { VolumeSummary } from '../../manifest/volumeSummary';
import { hasNfsMounts, manifestVolumeOf } from './common';

export const mountReachesOtherThanManifest = defineRule({
  code: 'ANF226',
  name: 'mount-reaches-other-than-manifest',
  domain: 'mount',
  defaultSeverity: 'warning',
  fixes: [],
  doc: {
    title: "Mount uses a manifest volume's mount path but another server or export",
    what: "A mount whose client mount point is the `mountPath` of a manifest volume while its server is none of the volume's `mountTargets`, or its export path is not the volume's `exportPath` (nor a directory below it). Parts that are templated or not written in the manifest are not compared.",
    why: 'The mount point says "this is volume X", the server and export say it is something else: an old mount target address, another volume, or a copy-paste from another environment. anf-lint does not link such a mount to the volume (its workload, protocols and Kerberos checks would judge the wrong thing), and says so here instead of attaching it silently.',
    instead:
      "Mount the volume's own mount target and export path, or correct the manifest (`mountTargets`, `exportPath`, `mountPath`) if it is the one that is out of date.",
    examples: [
      {
        flagged: '10.20.9.9:/hana-data-old  /hana/data  nfs  rw,hard,vers=4.1,_netdev  0  0',
        better: '10.20.1.4:/hana-data  /hana/data  nfs  rw,hard,vers=4.1,_netdev  0  0',
        language: 'fstab',
        context: [
          {
            path: 'hana.anf.yaml',
            text: 'accounts:\n  - name: sap-prod\n    pools:\n      - name: hana-prod\n        serviceLevel: Ultra\n        size: 4 TiB\n        volumes:\n          - name: hana-data\n            quota: 3 TiB\n            protocols: [NFSv4.1]\n            mountTarget: 10.20.1.4\n            exportPath: /hana-data\n            mountPath: /hana/data',
          },
        ],
      },
    ],
    sources: [],
  },
  appliesTo: hasNfsMounts,
  checkMount({ mount }, context) {
    if (context.workspace.volumes().length === 0) return;
    const index = indexOf(context);
    const mismatch = mountPathMismatch(index, mount);
    if (!mismatch) return;
    const { volume } = mismatch;
    const differs = [
      ...(mismatch.server
        ? [
            `server \`${mount.server}\` is not its mount target${volume.mountTargets.length > 1 ? 's' : ''} (${volume.mountTargets.map((t) => `\`${t}\``).join(', ')})`,
          ]
        : []),
      ...(mismatch.exportPath
        ? [`export \`${mount.exportPath}\` is not its export path \`${volume.exportPath}\``]
        : []),
    ];
    context.report(
      lazyFinding({ span: mount.sourceSpan ?? mount.span }, () => ({
        message: `This mount point is the \`mountPath\` of volume \`${volume.name}\` (${baseName(volume.uri)}), but the ${differs.join(' and the ')}: the mount reaches something other than the manifest says. anf-lint does not link it to the volume; correct the mount or the manifest.`,
        related: [relatedOf(context, volume)],
      })),
    );
  },
});

const INDEXES = new WeakMap<readonly VolumeSummary[], VolumeIndex>();

function indexOf(context: RuleContext): VolumeIndex {
  const volumes = context.workspace.volumes();
  let index = INDEXES.get(volumes);
  if (!index) {
    index = new VolumeIndex(volumes);
    INDEXES.set(volumes, index);
  }
  return index;
}

function relatedOf(context: RuleContext, volume: VolumeSummary) {
  const node = manifestVolumeOf(context, volume);
  return {
    uri: volume.uri,
    span: node?.name?.span ?? volume.nameSpan,
    message: `Volume \`${volume.name}\`: ${volume.mountTargets.length > 0 ? `mount targets ${volume.mountTargets.join(', ')}, ` : ''}export path ${volume.exportPath ?? '(not given)'}`,
  };
}
