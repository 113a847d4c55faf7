import { describe, expect, it } from 'vitest';
import { LITTLE_IAC_BYTES, parsesLittle } from '../../server/src/cli/iacReaders';

/**
 * Issue 29: a CLI run that parses little Terraform and Bicep text keeps WebAssembly baseline code
 * (no optimising compile to wait for at exit). Which runs count as little: the Terraform and Bicep
 * files the run reads, by size, other files not at all.
 */
describe('how much infrastructure code a run parses', () => {
  const sizes: Record<string, number> = {
    '/repo/main.tf': 4_000,
    '/repo/terraform.tfvars': 300,
    '/repo/main.bicep': 9_000,
    '/repo/big.tf': LITTLE_IAC_BYTES,
    '/repo/huge.anf.yaml': 50 * LITTLE_IAC_BYTES,
    '/repo/etc/fstab': 2 * LITTLE_IAC_BYTES,
  };
  const size = (path: string) => sizes[path];

  it('is little for a few small files, whatever else the run reads', () => {
    expect(
      parsesLittle(
        ['/repo/main.tf', '/repo/terraform.tfvars', '/repo/main.bicep', '/repo/huge.anf.yaml', '/repo/etc/fstab'],
        size,
      ),
    ).toBe(true);
  });

  it('is not little once the Terraform and Bicep text reaches the bound', () => {
    expect(parsesLittle(['/repo/main.tf', '/repo/big.tf'], size)).toBe(false);
    const many = Array.from({ length: Math.ceil(LITTLE_IAC_BYTES / 4_000) }, (_, i) => `/repo/m${i}/main.tf`);
    expect(parsesLittle(many, () => 4_000)).toBe(false);
    expect(parsesLittle(many.slice(1), () => 4_000)).toBe(true);
  });

  it('counts a file it cannot size as empty', () => {
    expect(parsesLittle(['/repo/gone.tf'], () => undefined)).toBe(true);
  });
});
