import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeManifestFigures } from '../../server/src/core/manifest/figures';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * Calls of the Azure Verified Module for ANF accounts (Bicep `br/public:avm/res/net-app/net-app-account`,
 * Terraform `Azure/avm-res-netapp-netappaccount/azurerm`) give the estate the module deploys: the
 * same figures and findings as the same estate written as resources, on the caller's own values,
 * in the units the module takes (Bicep pool `size` in TiB and `usageThreshold` in bytes; Terraform
 * pool `size` in bytes and `volume_size_in_gib` in GiB).
 */
const config = resolveConfig(configSchema.parse({}));
const DIR = join(__dirname, '..', 'fixtures', 'iac', 'known-modules');

function lint(name: string, text = readFileSync(join(DIR, name), 'utf8')) {
  const uri = `file:///work/estate/${name}`;
  const workspace = new Workspace(config);
  workspace.set(uri, text);
  const file = workspace.file(uri)!;
  const findings = visibleDiagnostics(lintFile(workspace, uri, config));
  const at = (code: string) => findings.filter((d) => d.code === code).map((d) => text.slice(d.span.start, d.span.end));
  const line = (code: string) =>
    findings.filter((d) => d.code === code).map((d) => text.slice(0, d.span.start).split('\n').length);
  return { text, file, findings, at, line };
}

function figures(name: string) {
  const { file } = lint(name);
  expect(file.manifest, `${name} gives an estate`).toBeDefined();
  const f = computeManifestFigures(file.manifest!, config);
  return {
    pools: f.pools.map((p) => ({
      id: p.id,
      serviceLevel: p.serviceLevel,
      qos: p.qos,
      sizeTiB: p.sizeTiB,
      allocatedGiB: p.allocatedGiB,
      budgetMiBps: p.budgetMiBps,
      usedMiBps: p.usedMiBps,
    })),
    volumes: f.volumes.map((v) => ({ id: v.id, quotaGiB: v.quotaGiB, throughputMiBps: v.throughput?.mibps })),
  };
}

describe.each([
  { language: 'Bicep', module: 'avm-account.bicep', raw: 'avm-account-raw.bicep', size: '1', protocols: '[' },
  {
    language: 'Terraform',
    module: 'avm-account.tf',
    raw: 'avm-account-raw.tf',
    size: '1099511627776',
    protocols: '["NFSv4.1"]',
  },
])(
  '$language: a call of the AVM account module is read as the resources it deploys',
  ({ module, raw, size, protocols }) => {
    it('gives the figures of the same estate written as resources', () => {
      const avm = figures(module);
      expect(avm.pools).toEqual([
        {
          id: 'eda-scratch-anf/scratch-premium',
          serviceLevel: 'Premium',
          qos: 'manual',
          sizeTiB: 1,
          allocatedGiB: 1024,
          budgetMiBps: 64,
          usedMiBps: 200,
        },
      ]);
      expect(avm).toEqual(figures(raw));
    });

    it("gives the findings of the resources: a 1 TiB Premium pool short of its volume's 200 MiB/s (ANF114), an EDA scratch volume on NFSv4.1 (ANF119)", () => {
      const findings = (name: string) =>
        lint(name)
          .findings.map((d) => `${d.code} ${d.message}`)
          .sort();
      expect(findings(module)).toEqual([
        'ANF114 The volumes of pool `scratch-premium` are assigned 200 MiB/s in total, above the pool budget of 64 MiB/s (1 TiB x 64 MiB/s per TiB).',
        'ANF119 Volume `regress-scratch` holds EDA scratch and project data on NFSv4.1; NFSv3 is markedly faster for this workload and it uses no Kerberos that would need NFSv4.1.',
      ]);
      expect(findings(module)).toEqual(findings(raw));
    });

    it('places each finding on the value the caller writes in the module call', () => {
      const { at } = lint(module);
      expect(at('ANF114')).toEqual([size]);
      expect(at('ANF119').map((t) => t.split('\n')[0])).toEqual([protocols]);
    });
  },
);

describe('calls that must give no finding', () => {
  it.each(['avm-clean.bicep', 'avm-clean.tf'])(
    '%s: a well-sized call stays clean (its pool and volumes are read)',
    (name) => {
      const { file, findings } = lint(name);
      expect(findings).toEqual([]);
      expect(figures(name).pools).toEqual([
        {
          id: 'eda-tools-anf/tools-premium',
          serviceLevel: 'Premium',
          qos: 'auto',
          sizeTiB: 4,
          allocatedGiB: 4096,
          budgetMiBps: 256,
          usedMiBps: 256,
        },
      ]);
      expect(file.iac?.volumes.map((v) => v.name?.value)).toEqual(['eda-tools', 'eda-libs']);
    },
  );

  it('avm-unknown.bicep: params without defaults and loops stay unknown, never guessed', () => {
    const { file, findings } = lint('avm-unknown.bicep');
    expect(findings).toEqual([]);
    const scratch = file.iac!.pools.find((p) => p.name?.value === 'scratch')!;
    expect(scratch.serviceLevel?.value).toBeUndefined();
    expect(scratch.size?.value).toBeUndefined();
    expect(scratch.size?.raw).toBe('poolSizeTiB');
    expect(file.iac!.volumes.find((v) => v.name?.value === 'regress-scratch')!.quota?.value).toBeUndefined();
    // A module called in a loop: its account is repeated; its `for` list of pools is not read.
    const perRegion = file.iac!.accounts.find((a) => a.symbol === 'perRegion')!;
    expect(perRegion.repeated).toBe(true);
    expect(perRegion.name?.value).toBeUndefined();
    expect(file.iac!.pools.filter((p) => p.account?.symbol === 'perRegion')).toEqual([]);
  });

  it('avm-unknown.tf: variables without values and a computed volume map stay unknown, never guessed', () => {
    const { file, findings } = lint('avm-unknown.tf');
    expect(findings).toEqual([]);
    const scratch = file.iac!.pools.find((p) => p.name?.value === 'scratch')!;
    expect(scratch.serviceLevel?.value).toBeUndefined();
    expect(scratch.size?.value).toBeUndefined();
    expect(scratch.size?.raw).toBe('var.pool_size_bytes');
    // `volumes = merge(...)`: not a map anf-lint can read, so no volume (rather than a guessed one).
    expect(file.iac!.volumes).toEqual([]);
  });
});

const BICEP_DEFAULTS = `param subnetId string

module home 'br/public:avm/res/net-app/net-app-account:0.12.3' = {
  name: 'anf-home'
  params: {
    name: 'home-anf'
    capacityPools: [
      {
        name: 'home'
        size: 16
        volumes: [
          {
            name: 'home'
            availabilityZone: -1
            subnetResourceId: subnetId
            networkFeatures: 'Standard'
            usageThreshold: 2 * 1024 * 1024 * 1024 * 1024
            protocolTypes: [
              'NFSv3'
            ]
          }
        ]
      }
    ]
  }
}
`;

const TERRAFORM_DEFAULTS = `module "home" {
  source  = "registry.terraform.io/Azure/avm-res-netapp-netappaccount/azurerm"
  version = "0.3.0"

  name                = "home-anf"
  location            = "westeurope"
  resource_group_name = "rg-home"

  capacity_pools = {
    home = {
      name          = "home"
      service_level = "Standard"
      size          = 17592186044416
    }
  }

  volumes = {
    home = {
      name                  = "home"
      capacity_pool_map_key = "home"
      subnet_resource_id    = "/subscriptions/0000/resourceGroups/rg-home/providers/Microsoft.Network/virtualNetworks/hub/subnets/anf"
      creation_token        = "home"
      network_features      = "Standard"
      protocol_types        = ["NFSv3"]
    }
  }
}
`;

describe("the module's defaults and units", () => {
  it("Bicep: a pool without `serviceLevel` is the module's Standard; a fix to its size writes TiB", () => {
    const { findings, at } = lint('defaults.bicep', BICEP_DEFAULTS);
    const shrink = findings.find((d) => d.code === 'ANF405')!;
    expect(shrink.message).toContain('Pool `home` is 16 TiB, but its volumes hold 2 TiB of quota');
    expect(shrink.message).toContain('Standard list price');
    expect(at('ANF405')).toEqual(['16']);
    expect(shrink.fixes?.[0]?.edits.map((e) => e.newText)).toEqual(['2']);
  });

  it("Terraform: a volume without `volume_size_in_gib` is the module's 50 GiB; a fix to the pool size writes bytes", () => {
    const { findings, at, file } = lint('defaults.tf', TERRAFORM_DEFAULTS);
    const quota = file.iac!.volumes[0]!.quota!;
    expect([quota.value, quota.unit, quota.editSpan]).toEqual([50, 'GiB', undefined]);
    expect(at('ANF405')).toEqual(['17592186044416']);
    expect(findings.find((d) => d.code === 'ANF405')!.fixes?.[0]?.edits.map((e) => e.newText)).toEqual([
      '1099511627776',
    ]);
  });
});

describe('versions the table does not know', () => {
  const bicep = readFileSync(join(DIR, 'avm-account.bicep'), 'utf8');
  const terraform = readFileSync(join(DIR, 'avm-account.tf'), 'utf8');

  it('are read when every input they write is a name the known versions declare', () => {
    expect(
      lint('newer.bicep', bicep.replace(':0.12.3', ':0.14.0'))
        .findings.map((d) => d.code)
        .sort(),
    ).toEqual(['ANF114', 'ANF119']);
    expect(
      lint('full.bicep', bicep.replace('br/public:', 'br:mcr.microsoft.com/bicep/'))
        .findings.map((d) => d.code)
        .sort(),
    ).toEqual(['ANF114', 'ANF119']);
    expect(
      lint('newer.tf', terraform.replace('"0.3.0"', '"~> 0.4"'))
        .findings.map((d) => d.code)
        .sort(),
    ).toEqual(['ANF114', 'ANF119']);
    expect(
      lint('unpinned.tf', terraform.replace(/ {2}version = "0.3.0"\n/, ''))
        .findings.map((d) => d.code)
        .sort(),
    ).toEqual(['ANF114', 'ANF119']);
  });

  it('are skipped when they write an input the known versions do not declare (it may mean something else)', () => {
    const renamed = lint('renamed.bicep', bicep.replace(':0.12.3', ':1.0.0').replace('size: 1', 'sizeTiB: 1'));
    expect(renamed.findings).toEqual([]);
    expect(renamed.file.iac?.pools ?? []).toEqual([]);
    const tf = lint(
      'renamed.tf',
      terraform
        .replace('"0.3.0"', '"1.0.0"')
        .replace('volume_size_in_gib    = 1024', 'volume_size_in_bytes  = 1099511627776'),
    );
    expect(tf.findings).toEqual([]);
    expect(tf.file.iac?.volumes ?? []).toEqual([]);
  });

  it('a known version is read even with an input it does not declare (the deployment would refuse it, not read it differently)', () => {
    expect(
      lint('typo.bicep', bicep.replace("qosType: 'Manual'", "qosType: 'Manual'\n        sizeTiB: 1"))
        .findings.map((d) => d.code)
        .sort(),
    ).toEqual(['ANF114', 'ANF119']);
  });

  it("Bicep before 0.8.0: a pool's `size` is in bytes (the module changed the unit, not the name)", () => {
    const old = lint('old.bicep', bicep.replace(':0.12.3', ':0.5.0').replace('size: 1', 'size: 1099511627776'));
    expect(old.findings.map((d) => d.code).sort()).toEqual(['ANF114', 'ANF119']);
    expect(computeManifestFigures(old.file.manifest!, config).pools.map((p) => p.sizeTiB)).toEqual([1]);
    // The same bytes under 0.12.3 would be a pool of a trillion TiB: read as TiB there.
    const current = lint('current.bicep', bicep.replace('size: 1', 'size: 4'));
    expect(computeManifestFigures(current.file.manifest!, config).pools.map((p) => p.sizeTiB)).toEqual([4]);
  });

  it('other registry modules are not read', () => {
    const other = lint(
      'other.bicep',
      bicep.replace('avm/res/net-app/net-app-account', 'avm/res/storage/storage-account'),
    );
    expect(other.findings).toEqual([]);
    expect(other.file.iac?.pools ?? []).toEqual([]);
  });
});

describe('hover on the call', () => {
  it('says which known module it is and what was read through it, or why nothing', async () => {
    const { computeHover } = await import('../../server/src/core/features/hover');
    const hover = (name: string, text: string, needle: string) => {
      const uri = `file:///work/estate/${name}`;
      const workspace = new Workspace(config);
      workspace.set(uri, text);
      return computeHover(workspace, uri, text.indexOf(needle) + 2, config)?.markdown;
    };
    const bicep = readFileSync(join(DIR, 'avm-account.bicep'), 'utf8');
    expect(hover('a.bicep', bicep, "'br/public")).toContain(
      "Read from this call's arguments, in the units the module takes: 1 NetApp account, 1 capacity pool, 1 volume.",
    );
    const terraform = readFileSync(join(DIR, 'avm-account.tf'), 'utf8');
    expect(hover('a.tf', terraform, 'module "anf"')).toContain(
      "the Azure Verified Module for NetApp accounts (Terraform, checked against 0.1.0 to 0.3.0). Read from this call's arguments",
    );
    expect(
      hover('b.bicep', bicep.replace(':0.12.3', ':1.0.0').replace('size: 1', 'sizeTiB: 1'), "'br/public"),
    ).toContain('so it is not read');
  });
});

describe('a local module that calls the registry module', () => {
  it('Bicep: the value its caller passes is judged where the caller writes it', () => {
    const wrapper = `param poolSizeTiB int
param subnetId string

module anf 'br/public:avm/res/net-app/net-app-account:0.12.3' = {
  name: 'anf-eda'
  params: {
    name: 'eda-anf'
    capacityPools: [
      {
        name: 'scratch-premium'
        serviceLevel: 'Premium'
        size: poolSizeTiB
        qosType: 'Manual'
        volumes: [
          // anf: workload=eda-scratch
          {
            name: 'regress-scratch'
            availabilityZone: 1
            subnetResourceId: subnetId
            usageThreshold: 1099511627776
            throughputMibps: 200
            protocolTypes: [
              'NFSv3'
            ]
          }
        ]
      }
    ]
  }
}
`;
    const main = `module eda './modules/eda-anf.bicep' = {
  name: 'eda'
  params: {
    poolSizeTiB: 1
    subnetId: '/subscriptions/0000/resourceGroups/rg-eda/providers/Microsoft.Network/virtualNetworks/eda/subnets/anf'
  }
}
`;
    const workspace = new Workspace(config);
    workspace.set('file:///repo/modules/eda-anf.bicep', wrapper);
    workspace.set('file:///repo/main.bicep', main);
    const findings = visibleDiagnostics(lintFile(workspace, 'file:///repo/main.bicep', config));
    expect(findings.map((d) => `${d.code} ${main.slice(d.span.start, d.span.end)}`)).toEqual(['ANF114 1']);
    expect(findings[0]!.message).toContain('above the pool budget of 64 MiB/s');
    // The module file alone: its pool size is a param without a value, unknown.
    expect(
      visibleDiagnostics(lintFile(workspace, 'file:///repo/modules/eda-anf.bicep', config)).map(
        (d) => `${d.code} ${d.message}`,
      ),
    ).toEqual([]);
  });
});

describe('a local Bicep module whose params all lack defaults', () => {
  it('judges a value its caller sets where the caller writes it (raw resources too)', () => {
    const module = `param quotaGiB int

resource account 'Microsoft.NetApp/netAppAccounts@2025-01-01' = {
  name: 'tools-anf'
}

resource pool 'Microsoft.NetApp/netAppAccounts/capacityPools@2025-01-01' = {
  parent: account
  name: 'tools'
  properties: {
    serviceLevel: 'Standard'
    size: 1099511627776
  }
}

// anf: workload=eda-tools
resource tools 'Microsoft.NetApp/netAppAccounts/capacityPools/volumes@2025-01-01' = {
  parent: pool
  name: 'tools'
  properties: {
    creationToken: 'tools'
    usageThreshold: quotaGiB * 1024 * 1024 * 1024
    protocolTypes: [
      'NFSv3'
    ]
  }
}
`;
    const main = `module tools './modules/tools.bicep' = {
  name: 'tools'
  params: {
    quotaGiB: 10
  }
}
`;
    const workspace = new Workspace(config);
    workspace.set('file:///repo/modules/tools.bicep', module);
    workspace.set('file:///repo/main.bicep', main);
    const findings = visibleDiagnostics(lintFile(workspace, 'file:///repo/main.bicep', config));
    // A 10 GiB quota, below the volume minimum: on the caller's `quotaGiB: 10`, not dropped as the module's own value.
    expect(findings.map((d) => `${d.code} ${main.slice(d.span.start, d.span.end)}`)).toContain('ANF111 10');
  });
});

describe('annotations on module entries', () => {
  it('the workload hint (ANF411) on an AVM volume writes its annotation inside the entry, where it is read', () => {
    const text = readFileSync(join(DIR, 'avm-account.bicep'), 'utf8')
      .replace('          // anf: workload=eda-scratch\n', '')
      .replace("name: 'regress-scratch'", "name: 'cad-tools'");
    const before = lint('hint.bicep', text);
    expect(before.findings.map((d) => d.code).sort()).toEqual(['ANF114', 'ANF411']);
    expect(before.findings.find((d) => d.code === 'ANF411')!.message).toContain(
      'write `// anf: workload=<kind>` above its entry in `volumes` or give it a `workload` tag',
    );
    const fix = before.findings.find((d) => d.code === 'ANF411')!.fixes![0]!;
    expect(fix.edits.map((e) => e.newText)).toEqual(['            // anf: workload=eda-tools\n']);
    const edit = fix.edits[0]!;
    const fixed = text.slice(0, edit.span.start) + edit.newText + text.slice(edit.span.end);
    expect(fixed).toContain("          {\n            // anf: workload=eda-tools\n            name: 'cad-tools'");
    expect(
      lint('hint.bicep', fixed)
        .findings.map((d) => d.code)
        .sort(),
    ).toEqual(['ANF114', 'ANF119']);
  });
});

describe("a finding on a module's default", () => {
  it("lands on the entry's `name` key and says the value is the module's default", () => {
    const text = `module "hana" {
  source  = "Azure/avm-res-netapp-netappaccount/azurerm"
  version = "0.3.0"
  name    = "sap-anf"

  capacity_pools = {
    ultra = {
      name          = "hana-ultra"
      service_level = "Ultra"
      size          = 4398046511104
    }
  }

  volumes = {
    log = {
      name                  = "hn1-log-mnt00001"
      capacity_pool_map_key = "ultra"
      subnet_resource_id    = "/subscriptions/0000/resourceGroups/rg-sap/providers/Microsoft.Network/virtualNetworks/sap/subnets/anf"
      creation_token        = "hn1-log-mnt00001"
      protocol_types        = ["NFSv4.1"]
    }
  }
}
`;
    const { findings, at, line } = lint('hana.tf', text);
    expect(findings.map((d) => d.code)).toEqual(['ANF408', 'ANF128']); // ANF128: a 50 GiB volume alone in a 4 TiB auto QoS pool;
    expect(at('ANF408')).toEqual(['name']);
    expect(line('ANF408')).toEqual([16]); // the volume entry's `name`
    expect(findings[0]!.message).toContain(
      '(from its name `hn1-log-mnt00001`; write `# anf: workload=<kind>` above its entry in `volumes` or give it a `workload` tag to override it)',
    );
    expect(findings[0]!.message).toMatch(
      /gets 6\.25 MiB\/s, below the 250 MB\/s .*\(`volume_size_in_gib` is not set: the module deploys 50 GiB\)$/,
    );
  });
});
