/**
 * Manifest snippets the YAML completion offers: a whole block per list (account, pool, volume) and
 * the skeleton of an empty file. JSON completion takes their labels and builds its blocks from the
 * schema (see completionJson.ts).
 */
import { WORKLOAD_KINDS } from '../facts';

/** Where editors fetch the manifest's JSON Schema (`$schema` in JSON, the modeline in YAML). */
export const MANIFEST_SCHEMA_URL =
  'https://raw.githubusercontent.com/anf-lint/anf-lint/main/schemas/anf-manifest.schema.json';

/** By the key of the list the block is an item of. */
export const BLOCK_SNIPPETS: Record<string, { label: string; detail: string; body: string }> = {
  accounts: {
    label: 'anf-account',
    detail: 'NetApp account with one pool and one volume',
    body: 'name: ${1:account}\npools:\n  - name: ${2:pool}\n    serviceLevel: ${3|Premium,Standard,Ultra,Flexible|}\n    size: ${4:4 TiB}\n    volumes:\n      - name: ${5:volume}\n        quota: ${6:1 TiB}\n',
  },
  pools: {
    label: 'anf-pool',
    detail: 'Capacity pool with one volume',
    body: 'name: ${1:pool}\nserviceLevel: ${2|Premium,Standard,Ultra,Flexible|}\nsize: ${3:4 TiB}\nqos: ${4|auto,manual|}\nvolumes:\n  - name: ${5:volume}\n    quota: ${6:1 TiB}\n',
  },
  volumes: {
    label: 'anf-volume',
    detail: 'Volume with requirements',
    body:
      'name: ${1:volume}\nquota: ${2:1 TiB}\nprotocols: [${3|NFSv3,NFSv4.1|}]\nworkload: ${4|' +
      WORKLOAD_KINDS.join(',') +
      '|}\nexportPath: /${1:volume}\nmountTarget: ${5:10.0.0.4}\nrequirements:\n  throughput: ${6:200 MiB/s}\n  latency: ${7:1 ms}\n',
  },
};

/** The modeline's `$` is escaped: in a snippet `$schema` is a variable, which editors replace with `schema`. */
export const SKELETON = `# yaml-language-server: \\$schema=${MANIFEST_SCHEMA_URL}\nregion: \${1:eastus}\naccounts:\n  - name: \${2:account}\n    pools:\n      - name: \${3:pool}\n        serviceLevel: \${4|Premium,Standard,Ultra,Flexible|}\n        size: \${5:4 TiB}\n        volumes:\n          - name: \${6:volume}\n            quota: \${7:1 TiB}\n            requirements:\n              throughput: \${8:200 MiB/s}\n`;
