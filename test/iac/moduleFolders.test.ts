import { describe, expect, it } from 'vitest';
import { localModuleFolder } from '../../server/src/core/iac/terraform';

/**
 * A local module's folder is worked out by path segments for plain paths (issue 29: 1,800 URL
 * parses on the 3,000-file repository) and by URL otherwise; both must give URL's answer.
 */
function byUrl(caller: string, source: string): string {
  return new URL(`${source.replace(/\/+$/, '')}/`, caller).href;
}

const CALLERS = [
  'file:///repo/stacks/dev-1/main.tf',
  'file:///main.tf',
  'file:///repo/a/main.tf',
  'file:///repo/with%20space/main.tf',
  'file:///repo/%C3%BCnicode/main.tf',
  'file:///C:/repo/main.tf',
  'file:///repo//double/main.tf',
  'file:///repo/x.y~z!$&(),;=@+/main.tf',
];
const SOURCES = [
  './modules/netapp',
  '../../modules/platform-7',
  '../../../../../../x',
  './',
  '../',
  './a/',
  './a//b',
  '../x/..',
  './a/./b/../c',
  './.../x',
  './..a/b..',
  './with space',
  './ünïcode',
  './percent%2e%2e/x',
  './q?x',
  './h#x',
  './back\\slash',
];

describe('localModuleFolder', () => {
  it.each(CALLERS.flatMap((caller) => SOURCES.map((source) => [caller, source])))(
    '%s calling %s: URL’s answer',
    (caller, source) => {
      expect(localModuleFolder(caller, source)).toBe(byUrl(caller, source));
      // Asked again (the memo): the same answer.
      expect(localModuleFolder(caller, source)).toBe(byUrl(caller, source));
    },
  );

  it('is undefined for a registry or git source, and for `.` or `..` without a slash (Terraform takes a local path only when it starts with `./` or `../`)', () => {
    expect(localModuleFolder(CALLERS[0]!, '.')).toBeUndefined();
    expect(localModuleFolder(CALLERS[0]!, '..')).toBeUndefined();
    expect(localModuleFolder(CALLERS[0]!, 'Azure/avm-res-netapp-netappaccount/azurerm')).toBeUndefined();
    expect(localModuleFolder(CALLERS[0]!, 'git::https://example.com/m.git')).toBeUndefined();
    expect(localModuleFolder(CALLERS[0]!, undefined)).toBeUndefined();
  });
});
