import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configSchema, FILE_ONLY_CONFIG_KEYS } from '../../server/src/core';
import { SETTINGS_SECTION } from '../../server/src/lsp/settings';
import { documentSelector, IAC_LANGUAGES, OWN_LANGUAGES } from '../../client/src/documentSelector';

/**
 * The extension's package.json against the files and code it names, without starting VS Code:
 * every contributed file exists and parses, every command has a handler and every handler a
 * contribution, the settings are exactly the keys the server reads, and each language anf-lint
 * adds activates the extension. (vscode.test.ts then runs the packaged extension for real.)
 */
const ROOT = join(__dirname, '..', '..');

interface Contributes {
  languages: { id: string; configuration?: string }[];
  grammars: { language?: string; scopeName: string; path: string; injectTo?: string[] }[];
  snippets: { language: string; path: string }[];
  yamlValidation?: { fileMatch: string; url: string }[];
  jsonValidation: { fileMatch: string; url: string }[];
  commands: { command: string; title: string; category?: string }[];
  configuration: { properties: Record<string, { description?: string; markdownDescription?: string }> };
  views: Record<string, { id: string; name: string }[]>;
  menus: Record<string, { command: string }[]>;
}

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  icon: string;
  activationEvents: string[];
  capabilities: { untrustedWorkspaces?: unknown; virtualWorkspaces?: unknown };
  contributes: Contributes;
};
const contributes = pkg.contributes;

function clientSources(dir = join(ROOT, 'client', 'src')): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) =>
      entry.isDirectory()
        ? clientSources(join(dir, entry.name))
        : entry.name.endsWith('.ts')
          ? readFileSync(join(dir, entry.name), 'utf8')
          : '',
    )
    .join('\n');
}

describe('VS Code contributions (package.json)', () => {
  it('names files that exist and parse', () => {
    const paths = [
      pkg.icon,
      ...contributes.languages.flatMap((l) => (l.configuration ? [l.configuration] : [])),
      ...contributes.grammars.map((g) => g.path),
      ...contributes.snippets.map((s) => s.path),
      ...(contributes.yamlValidation ?? []).map((v) => v.url),
      ...contributes.jsonValidation.map((v) => v.url),
    ];
    for (const path of paths) {
      expect(existsSync(join(ROOT, path)), path).toBe(true);
      if (path.endsWith('.json')) expect(() => JSON.parse(readFileSync(join(ROOT, path), 'utf8')), path).not.toThrow();
    }
  });

  it('has grammars whose scope names match, whose patterns compile, and one per language anf-lint adds', () => {
    for (const grammar of contributes.grammars) {
      const json = JSON.parse(readFileSync(join(ROOT, grammar.path), 'utf8')) as { scopeName: string };
      expect(json.scopeName, grammar.path).toBe(grammar.scopeName);
      // TextMate uses Oniguruma; apart from \G (anchor at the previous match) these are JS-compatible.
      const patterns: string[] = [];
      JSON.stringify(json, (key, value: unknown) => {
        if ((key === 'match' || key === 'begin' || key === 'end') && typeof value === 'string') patterns.push(value);
        return value;
      });
      for (const pattern of patterns)
        expect(() => new RegExp(pattern.replace(/\\G/g, '')), `${grammar.path}: ${pattern}`).not.toThrow();
    }
    const colored = new Set(contributes.grammars.map((g) => g.language));
    for (const id of OWN_LANGUAGES) expect(colored, `grammar for ${id}`).toContain(id);
    expect(contributes.languages.map((l) => l.id).sort()).toEqual([...OWN_LANGUAGES].sort());
  });

  it('activates on every language it adds and on workspaces with manifests', () => {
    for (const id of OWN_LANGUAGES) expect(pkg.activationEvents).toContain(`onLanguage:${id}`);
    expect(pkg.activationEvents.some((e) => e.startsWith('workspaceContains:') && e.includes('.anf.'))).toBe(true);
  });

  it('activates on Terraform, Bicep and ARM files and sends them to the server by language and by name', () => {
    for (const id of IAC_LANGUAGES) expect(pkg.activationEvents).toContain(`onLanguage:${id}`);
    for (const ext of ['tf', 'bicep']) expect(pkg.activationEvents).toContain(`workspaceContains:**/*.${ext}`);
    const selector = documentSelector();
    for (const id of IAC_LANGUAGES) expect(selector).toContainEqual({ scheme: 'file', language: id });
    // Without the HashiCorp or Bicep extension these files have no language of their own.
    for (const ext of ['tf', 'tfvars', 'bicep'])
      expect(selector).toContainEqual({ scheme: 'file', pattern: `**/*.${ext}` });
  });

  it('is what client/scripts/contributes.mjs writes (the single source of the contribution keys)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'anf-contributes-'));
    try {
      writeFileSync(join(dir, 'package.json'), readFileSync(join(ROOT, 'package.json'), 'utf8'));
      execFileSync(process.execPath, [join(ROOT, 'client', 'scripts', 'contributes.mjs')], { cwd: dir, stdio: 'pipe' });
      expect(
        readFileSync(join(dir, 'package.json'), 'utf8'),
        'run: flock /tmp/anf-npm.lock node client/scripts/contributes.mjs',
      ).toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('registers a handler for every command and contributes every command it registers', () => {
    const sources = clientSources();
    const registered = new Set([...sources.matchAll(/registerCommand\(\s*'([^']+)'/g)].map((m) => m[1]!));
    for (const constant of sources.matchAll(/export const (\w+_COMMAND) = '([^']+)'/g))
      if (sources.includes(`registerCommand(${constant[1]}`)) registered.add(constant[2]!);
    const contributed = new Set(contributes.commands.map((c) => c.command));
    expect([...registered].sort()).toEqual([...contributed].sort());
    for (const command of contributes.commands) expect(command.category, command.command).toBe('ANF');
    const titles = contributes.commands.map((c) => c.title);
    for (const title of [
      'Recommend sizing...',
      'Insert mount command for volume...',
      'Show rule documentation',
      'Restart server',
    ])
      expect(titles).toContain(title);
    for (const entries of Object.values(contributes.menus))
      for (const entry of entries) expect(contributed, `menu entry ${entry.command}`).toContain(entry.command);
  });

  it('offers exactly the settings the server reads, each with a description', () => {
    const properties = contributes.configuration.properties;
    for (const [key, schema] of Object.entries(properties))
      expect(schema.description ?? schema.markdownDescription, key).toBeTruthy();
    const topLevel = new Set(
      Object.keys(properties)
        .map((key) => key.split('.')[1]!)
        .filter((key) => key !== 'trace'),
    );
    expect(Object.keys(properties).every((key) => key.startsWith(`${SETTINGS_SECTION}.`))).toBe(true);
    expect([...topLevel].sort()).toEqual(
      Object.keys(configSchema.shape)
        .filter((key) => !(FILE_ONLY_CONFIG_KEYS as readonly string[]).includes(key))
        .sort(),
    );
  });

  it('shows the hierarchy view, declares workspace trust and virtual workspace support', () => {
    expect(
      Object.values(contributes.views)
        .flat()
        .map((v) => v.name),
    ).toContain('ANF Hierarchy');
    expect(pkg.capabilities.untrustedWorkspaces).toEqual({ supported: true });
    expect(pkg.capabilities.virtualWorkspaces).toBeDefined();
    expect(existsSync(join(ROOT, 'client', 'src', 'extension.ts'))).toBe(true);
    expect(pkg.main).toBe('./dist/client/extension.js');
  });
});
