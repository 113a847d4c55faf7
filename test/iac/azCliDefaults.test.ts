import { describe, expect, it } from 'vitest';
import { parseFile } from '../../server/src/core';

/** Documented defaults of omitted `az netappfiles` flags (issue 28): only where the CLI's own reference states them. */
const SCRIPT = `#!/bin/bash
az netappfiles pool create -g rg -a anf-docs -n pool1 -l westeurope --size 4 --service-level Standard
az netappfiles volume create -g rg -a anf-docs -p pool1 -n docs -l westeurope --service-level Standard \\
  --file-path docs --vnet vnet-docs --subnet snet-anf --protocol-types NFSv3
az netappfiles volume create -g rg -a anf-docs -p pool1 -n wiki -l westeurope --service-level Standard \\
  --usage-threshold 500 --file-path wiki --vnet vnet-docs --subnet snet-anf --protocol-types NFSv3
az netappfiles volume update -g rg -a anf-docs -p pool1 -n wiki --service-level Standard
`;

describe('az netappfiles defaults', () => {
  it('gives a created volume without --usage-threshold the CLI default of 100 GiB, saying so, and never edits it', () => {
    const volumes = parseFile('file:///repo/docs.sh', SCRIPT).iac!.volumes;
    expect(volumes.map((v) => [v.name?.value, v.quota?.value, v.quota?.unit])).toEqual([
      ['docs', 100, 'GiB'],
      ['wiki', 500, 'GiB'],
    ]);
    expect(volumes[0]!.quota?.origin).toContain("the az CLI's default, 100 GiB");
    expect(volumes[0]!.quota?.editSpan).toBeUndefined();
    // An update that omits the flag keeps the created value.
    expect(volumes[1]!.quota?.origin).toBeUndefined();
  });
});
