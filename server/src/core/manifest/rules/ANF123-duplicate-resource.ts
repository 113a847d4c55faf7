import type { Span } from '../../text/sourceText';
import { normalizeExportPath } from '../../workspace/links';
import { defineRule } from '../../rules/rule';
import type { Located } from '../model';
import { isManifest, manifestOf, volumes, manifestExample } from './helpers';

export const duplicateResource = defineRule({
  code: 'ANF123',
  name: 'duplicate-resource',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: [],
  doc: {
    title: 'Duplicate account, pool or volume name, export path or mount path',
    what: 'Two NetApp accounts with the same name, two pools with the same name in one account, two volumes with the same name in one pool, two volumes with the same export path, or two volumes mounted at the same client path (a warning).',
    why: 'Azure names must be unique at their level, so the second resource cannot be created. Export paths identify what a client mounts, and anf-lint links fstab lines and scripts to volumes by mount target and export path: a duplicate makes the link ambiguous. Two volumes on one mount path hide each other on the client.',
    instead: 'Give each resource its own name and each volume its own export path and mount path.',
    examples: [
      {
        flagged: manifestExample('- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - { name: tools, quota: 2 TiB, exportPath: /tools }\n    - { name: tools, quota: 1 TiB, exportPath: /tools }'),
        better: manifestExample('- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - { name: tools, quota: 2 TiB, exportPath: /tools }\n    - { name: libs, quota: 1 TiB, exportPath: /libs }'),
        language: 'yaml',
      },
    ],
    sources: ['RL'],
  },
  appliesTo: isManifest,
  check(context) {
    const manifest = manifestOf(context);
    if (!manifest) return;
    const uri = context.file.uri;
    const check = (items: { key: string; at: Located<string> }[], what: string, where: string, severity?: 'warning') => {
      const first = new Map<string, Located<string>>();
      for (const { key, at } of items) {
        const earlier = first.get(key);
        if (!earlier) {
          first.set(key, at);
          continue;
        }
        const line = context.file.source.positionAt(earlier.span.start).line + 1;
        context.report({
          span: at.span,
          ...(severity ? { severity } : {}),
          message: `Duplicate ${what} \`${at.value}\`${where} (first on line ${line}).`,
          related: [{ uri, span: earlier.span as Span, message: `First ${what} \`${earlier.value}\`` }],
        });
      }
    };
    check(manifest.accounts.flatMap((a) => (a.name ? [{ key: a.name.value, at: a.name }] : [])), 'NetApp account name', '');
    for (const account of manifest.accounts) {
      check(account.pools.flatMap((p) => (p.name ? [{ key: p.name.value, at: p.name }] : [])), 'capacity pool name', ' in this account');
      for (const pool of account.pools) {
        check(pool.volumes.flatMap((v) => (v.name ? [{ key: v.name.value, at: v.name }] : [])), 'volume name', ' in this pool');
      }
    }
    const all = [...volumes(manifest)].map((v) => v.volume);
    check(
      // The export path (creation token) is unique per subscription and region, whatever the mount target.
      all.flatMap((v) => (v.exportPath ? [{ key: normalizeExportPath(v.exportPath.value), at: v.exportPath }] : [])),
      'export path',
      '',
    );
    check(all.flatMap((v) => (v.mountPath ? [{ key: normalizeExportPath(v.mountPath.value), at: v.mountPath }] : [])), 'client mount path', '', 'warning');
  },
});
