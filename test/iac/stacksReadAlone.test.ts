import { afterEach, describe, expect, it } from 'vitest';
import { configSchema, resolveConfig } from '../../server/src/core/config';
import { shareTrees } from '../../server/src/core/iac/treeSitter';
import { lintFile } from '../../server/src/core/lint';
import { Workspace } from '../../server/src/core/workspace/workspace';

/**
 * Issue 29: a Terraform root folder whose files hold nothing the reader reads and whose `module`
 * calls reach no NetApp resource (most stacks of a real repository) is not read as a module: its
 * files are given as read alone (terraformModules.ts `givesFilesAsAlone`). A variable it names and
 * does not declare gets no ANF420 there (Terraform's own check; no figure of anf-lint's depends
 * on it), and does once its calls reach a NetApp resource.
 */
const config = resolveConfig(configSchema.parse({}));

afterEach(() => shareTrees(false));

const PLATFORM = 'variable "name" {}\n\nresource "azurerm_storage_account" "sa" {\n  name = var.name\n}\n';

function stack(main: string): Workspace {
  // The CLI's trees are shared between a file's reading alone and its module's (the light path needs them).
  shareTrees(true);
  const workspace = new Workspace(config);
  workspace.setLater('file:///repo/platform/main.tf', PLATFORM);
  workspace.setLater('file:///repo/stack/main.tf', main);
  workspace.setLater(
    'file:///repo/stack/variables.tf',
    'variable "location" {\n  type = string\n}\n\nvariable "name" {\n  type = string\n}\n',
  );
  workspace.setLater('file:///repo/stack/terraform.tfvars', 'location = "westeurope"\nname = "app"\n');
  return workspace;
}

const CALL = 'module "app" {\n  source = "../platform"\n  name   = var.name\n}\n';
const GROUP = 'resource "azurerm_resource_group" "rg" {\n  name     = "rg"\n  location = var.location\n}\n';

function anf420(workspace: Workspace): string[] {
  return lintFile(workspace, 'file:///repo/stack/main.tf', config)
    .filter((d) => d.code === 'ANF420')
    .map((d) => workspace.textOf('file:///repo/stack/main.tf')!.slice(d.span.start, d.span.end));
}

describe('a stack whose calls reach no NetApp resource', () => {
  it('is given as read alone when every variable it names is declared', () => {
    const workspace = stack(`${GROUP}\n${CALL}`);
    expect(anf420(workspace)).toEqual([]);
    // The file as read alone, not a module reading's copy of it.
    const alone = workspace.parsedAlone().find((f) => f.uri === 'file:///repo/stack/main.tf');
    expect(workspace.file('file:///repo/stack/main.tf')).toBe(alone);
    expect(alone!.iac!.calls?.map((c) => c.name)).toEqual(['app']);
  });

  it('gets no ANF420 for a variable it names and does not declare: no figure of anf-lint depends on it', () => {
    const workspace = stack(`${GROUP}\n${CALL}\nlocals {\n  region = var.regoin\n}\n`);
    expect(anf420(workspace)).toEqual([]);
    // With a NetApp resource in the module it calls, the stack is read as a module, and ANF420 says so.
    workspace.set('file:///repo/platform/anf.tf', 'resource "azurerm_netapp_account" "a" {\n  name = var.name\n}\n');
    expect(anf420(workspace)).toEqual(['var.regoin']);
  });

  it("reports a broken terraform.tfvars only once the stack's calls reach a NetApp resource", () => {
    const workspace = stack(`${GROUP}\n${CALL}`);
    const tfvars = 'file:///repo/stack/terraform.tfvars';
    const syntax = () => lintFile(workspace, tfvars, config).filter((d) => d.code === 'ANF400').length;
    workspace.set(tfvars, 'location = "westeurope"\nname = \n');
    // Its values reach nothing anf-lint reads: Terraform reports the error, anf-lint does not parse the file.
    expect(syntax()).toBe(0);
    workspace.set('file:///repo/platform/anf.tf', 'resource "azurerm_netapp_account" "a" {\n  name = var.name\n}\n');
    expect(syntax()).toBe(1);
  });

  it('gets no ANF420 for an undeclared name in a comment (the module reading confirms in the tree)', () => {
    const workspace = stack(`# was var.old_name\n${GROUP}\n${CALL}`);
    expect(anf420(workspace)).toEqual([]);
  });
});
