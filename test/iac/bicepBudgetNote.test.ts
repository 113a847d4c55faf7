import { describe, expect, it } from 'vitest';
import { configSchema, lintFile, resolveConfig, visibleDiagnostics, Workspace } from '../../server/src/core';

/**
 * A Bicep file whose module loops make more instances than anf-lint reads (64 x 64 here) gets one
 * ANF422 note, whatever comes before its first `module` line. It used to show only when something
 * (a `param`) came first: a note at the file's start on a call's head was taken for a module's
 * finding that another file reports, and dropped.
 */
const config = resolveConfig(configSchema.parse({}));

// NetApp accounts: a module with no NetApp resource type is not read as an instance (issue 29),
// so its resources would not count towards the bound.
const TAGS = `param prefix string

resource accounts 'Microsoft.NetApp/netAppAccounts@2025-06-01' = [for k in range(0, 64): {
  name: '\${prefix}-anf-\${k}'
  location: 'westeurope'
}]
`;

const LOOP = `module tagged './modules/tags.bicep' = [for j in range(0, 64): {
  name: 'tags-\${j}'
  params: {
    prefix: 'site\${j}'
  }
}]
`;

function notes(main: string): string[] {
  const workspace = new Workspace(config);
  workspace.set('file:///repo/modules/tags.bicep', TAGS);
  workspace.set('file:///repo/main.bicep', main);
  return visibleDiagnostics(lintFile(workspace, 'file:///repo/main.bicep', config))
    .filter((d) => d.code === 'ANF422')
    .map((d) => `${d.range.start.line + 1}:${d.range.start.character} ${d.message.slice(0, 60)}`);
}

describe('ANF422 on a Bicep file whose module loops exceed the instance bound', () => {
  it.each([
    ['starting with its module loop', LOOP, 1],
    ['with a param before it', `param env string = 'prod'\n\n${LOOP}`, 3],
    ['with a comment before it', `// Tags for every site\n${LOOP}`, 2],
  ])('%s: one note, on the module declaration', (_name, main, line) => {
    expect(notes(main)).toEqual([`${line}:0 anf-lint stopped reading this file and its modules after it `]);
  });
});
