import type { Span } from '../../text/sourceText';
import { normalizeExportPath } from '../../workspace/links';
import { defineRule } from '../../rules/rule';
import type { Located } from '../model';
import { isManifest, volumes, manifestExample } from './helpers';

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
      manifestExample(
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - { name: tools, quota: 2 TiB, exportPath: /tools }\n    - { name: tools, quota: 1 TiB, exportPath: /tools }',
        '- name: tools-pool\n  serviceLevel: Premium\n  size: 4 TiB\n  volumes:\n    - { name: tools, quota: 2 TiB, exportPath: /tools }\n    - { name: libs, quota: 1 TiB, exportPath: /libs }',
      ),
    ],
    sources: ['RL'],
  },
  appliesTo: isManifest,
  checkEstate(manifest, context) {
    const uri = context.file.uri;
    // One pass per list, without a list of key objects: run on every keystroke over every volume.
    const check = <T>(
      items: readonly T[],
      located: (item: T) => Located<string> | undefined,
      key: (value: string) => string,
      what: string,
      where: string,
      severity?: 'warning',
    ) => {
      const first = new Map<string, Located<string>>();
      for (const item of items) {
        const at = located(item);
        if (!at) continue;
        const k = key(at.value);
        const earlier = first.get(k);
        if (!earlier) {
          first.set(k, at);
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
    check(manifest.accounts, (a) => a.name, same, 'NetApp account name', '');
    for (const account of manifest.accounts) {
      check(account.pools, (p) => p.name, same, 'capacity pool name', ' in this account');
      for (const pool of account.pools) check(pool.volumes, (v) => v.name, same, 'volume name', ' in this pool');
    }
    const all = volumes(manifest);
    // The export path (creation token) is unique per subscription and region, whatever the mount target.
    check(all, (v) => v.volume.exportPath, pathKey, 'export path', '');
    check(all, (v) => v.volume.mountPath, pathKey, 'client mount path', '', 'warning');
  },
});

const same = (value: string) => value;

/**
 * normalizeExportPath, without its regular expression and new strings for a path that is already
 * normal (starts with `/`, ends with neither `/` nor white space): nearly every path of a manifest.
 */
function pathKey(path: string): string {
  return path.startsWith('/') && !ENDS_ABNORMAL.test(path) ? path : normalizeExportPath(path);
}

const ENDS_ABNORMAL = /[\s/]$/;
