import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintAll, placementProblems } from '../robustness/check';

/**
 * Infrastructure code as people type it: example files with random slices deleted, duplicated or
 * replaced by hostile text. Reading and linting never throws (no ANF002), and every finding and
 * fix points inside its document.
 */
const EXAMPLES = join(__dirname, '..', '..', 'examples');
const SOURCES = [
  ['main.tf', readFileSync(join(EXAMPLES, 'sap-hana/terraform/main.tf'), 'utf8')],
  ['main.bicep', readFileSync(join(EXAMPLES, 'sap-hana/bicep/main.bicep'), 'utf8')],
  [
    'azuredeploy.json',
    readFileSync(join(__dirname, '..', 'fixtures/rules/ANF406-decimal-byte-arithmetic/arm/azuredeploy.json'), 'utf8'),
  ],
  [
    'volumes.json',
    readFileSync(join(__dirname, '..', 'fixtures/rules/ANF403-export-root-open/az/volumes.json'), 'utf8'),
  ],
] as const;
const HOSTILE = [
  '{',
  '}',
  '"',
  "'",
  '${',
  '[',
  ']',
  '=',
  ':',
  '\n',
  '# anf: workload=',
  '1000 * 1000',
  'var.',
  'parent: ',
  '\u{1F600}',
  '\0',
  "[parameters('x')]",
];

const edit = fc.record({
  at: fc.nat(),
  length: fc.nat({ max: 80 }),
  insert: fc.oneof(fc.constantFrom(...HOSTILE), fc.string({ maxLength: 20 })),
});

describe('half-typed and mangled infrastructure code', () => {
  it.each(SOURCES)('%s', (name, original) => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        let text: string = original;
        for (const e of edits) {
          const at = e.at % (text.length + 1);
          text = text.slice(0, at) + e.insert + text.slice(at + e.length);
        }
        const uri = `file:///repo/${name}`;
        const { workspace, diagnostics } = lintAll([{ uri, text }]);
        const found = diagnostics.get(uri)!;
        expect(found.map((d) => d.code)).not.toContain('ANF002');
        expect(placementProblems(workspace, found)).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });
});

/** A caller and the local module it calls (Terraform and Bicep): either side half-typed. */
const MODULE_SETS: readonly (readonly [string, Record<string, string>])[] = [
  [
    'terraform module blocks',
    {
      'main.tf': `module "hn1" {\n  source        = "./modules/hana"\n  count         = 1\n  sid           = "hn1"\n  log_quota_gib = 1024\n}\n\nmodule "hn2" {\n  source        = "./modules/hana"\n  sid           = var.sid\n  log_quota_gib = local.quota\n}\n\nlocals {\n  quota = 2048\n}\n`,
      'modules/hana/main.tf': `variable "sid" {}\nvariable "log_quota_gib" {\n  default = 100\n}\n\nmodule "inner" {\n  source = "../hana"\n}\n\nresource "azurerm_netapp_pool" "p" {\n  name          = "\${var.sid}-pool"\n  service_level = "Ultra"\n  size_in_tb    = 4\n}\n\nresource "azurerm_netapp_volume" "log" {\n  name                = "\${var.sid}-log-mnt00001"\n  pool_name           = azurerm_netapp_pool.p.name\n  service_level       = "Ultra"\n  volume_path         = "\${var.sid}-log-mnt00001"\n  storage_quota_in_gb = var.log_quota_gib\n  protocols           = ["NFSv4.1"]\n}\n`,
    },
  ],
  [
    'bicep modules',
    {
      'main.bicep': `module hn1 './modules/hana.bicep' = {\n  name: 'hn1'\n  params: {\n    sid: 'hn1'\n    logQuotaGiB: 1024\n  }\n}\n\nmodule many './modules/hana.bicep' = [for s in sids: {\n  name: s\n  params: {\n    sid: s\n  }\n}]\n`,
      'modules/hana.bicep': `param sid string\nparam logQuotaGiB int = 100\n\nmodule again './hana.bicep' = {\n  name: 'again'\n}\n\nresource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2024-07-01' = {\n  name: 'acct/\${sid}-pool'\n  properties: {\n    serviceLevel: 'Ultra'\n    size: 4398046511104\n  }\n}\n\nresource log 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2024-07-01' = {\n  parent: pool\n  name: '\${sid}-log-mnt00001'\n  properties: {\n    serviceLevel: 'Ultra'\n    creationToken: '\${sid}-log-mnt00001'\n    usageThreshold: logQuotaGiB * 1024 * 1024 * 1024\n  }\n}\n`,
    },
  ],
];

describe('half-typed module calls and modules', () => {
  for (const [name, files] of MODULE_SETS) {
    for (const mangled of Object.keys(files)) {
      it(`${name}: ${mangled} mangled`, () => {
        fc.assert(
          fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
            let text = files[mangled]!;
            for (const e of edits) {
              const at = e.at % (text.length + 1);
              text = text.slice(0, at) + e.insert + text.slice(at + e.length);
            }
            const docs = Object.entries(files).map(([path, original]) => ({
              uri: `file:///repo/${path}`,
              text: path === mangled ? text : original,
            }));
            const { workspace, diagnostics } = lintAll(docs);
            for (const doc of docs) {
              const found = diagnostics.get(doc.uri)!;
              expect(found.map((d) => d.code)).not.toContain('ANF002');
              expect(found.map((d) => d.code)).not.toContain('ANF003');
              expect(placementProblems(workspace, found)).toEqual([]);
            }
          }),
          { numRuns: 30 },
        );
      });
    }
  }
});
