import * as vscode from 'vscode';

const RULE_CODE = /^ANF\d{3}$/;

/**
 * The read-only scheme the rule pages open under: `anf-lint-doc:/ANF219.md`. The language client
 * serves `file`, `untitled` and `vscode-vfs` documents only (documentSelector.ts), so a page shown
 * this way never reaches the linter: its example mount lines stay out of Problems and out of the
 * tree's totals. Opening docs/rules/ANF219.md from the workspace as a file still lints it.
 */
export const RULE_DOC_SCHEME = 'anf-lint-doc';

/** Serves `anf-lint-doc:/ANFnnn.md` from the pages shipped in the extension (docs/rules/). */
export class RuleDocumentProvider implements vscode.TextDocumentContentProvider {
  constructor(private readonly extensionUri: vscode.Uri) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const code = uri.path.replace(/^\//, '').replace(/\.md$/, '');
    if (!RULE_CODE.test(code)) return `# ${code}\n\nanf-lint has no rule ${code}.\n`;
    const bytes = await vscode.workspace.fs.readFile(
      vscode.Uri.joinPath(this.extensionUri, 'docs', 'rules', `${code}.md`),
    );
    return new TextDecoder().decode(bytes);
  }
}

interface RulePick extends vscode.QuickPickItem {
  readonly code: string;
}

/**
 * "ANF: Show rule documentation": opens a rule's page (docs/rules/ANFnnn.md, shipped inside the
 * extension) in the Markdown preview, as a read-only `anf-lint-doc:` document (never linted). With a code argument it opens that page; otherwise it offers
 * the rules of the diagnostics under the cursor first, then those of the active file, then all.
 */
export async function showRuleDocumentation(extensionUri: vscode.Uri, code?: unknown): Promise<void> {
  const rulesDir = vscode.Uri.joinPath(extensionUri, 'docs', 'rules');
  const requested = typeof code === 'string' ? code : codeOf(code);
  const chosen = requested && RULE_CODE.test(requested) ? requested : await pickRule(rulesDir);
  if (!chosen) return;
  const page = vscode.Uri.joinPath(rulesDir, `${chosen}.md`);
  try {
    await vscode.workspace.fs.stat(page);
  } catch {
    void vscode.window.showWarningMessage(`anf-lint has no documentation page for ${chosen}.`);
    return;
  }
  await vscode.commands.executeCommand(
    'markdown.showPreview',
    vscode.Uri.from({ scheme: RULE_DOC_SCHEME, path: `/${chosen}.md` }),
  );
}

/** A diagnostic code as VS Code hands it over: a string, or `{ value, target }`. */
function codeOf(value: unknown): string | undefined {
  if (value && typeof value === 'object' && 'value' in value) return String((value as { value: unknown }).value);
  return undefined;
}

async function pickRule(rulesDir: vscode.Uri): Promise<string | undefined> {
  const titles = await ruleTitles(rulesDir);
  const editor = vscode.window.activeTextEditor;
  const picks: (RulePick | vscode.QuickPickItem)[] = [];
  const seen = new Set<string>();
  const add = (code: string, detail?: string) => {
    if (seen.has(code)) return;
    seen.add(code);
    picks.push({ label: code, description: titles.get(code) ?? '', ...(detail ? { detail } : {}), code });
  };
  if (editor) {
    const diagnostics = vscode.languages
      .getDiagnostics(editor.document.uri)
      .filter((d) => d.source === 'anf-lint' || RULE_CODE.test(codeOf(d.code) ?? String(d.code ?? '')));
    const here = diagnostics.filter((d) => d.range.contains(editor.selection.active));
    if (here.length > 0) picks.push({ label: 'At the cursor', kind: vscode.QuickPickItemKind.Separator });
    for (const d of here) add(codeOf(d.code) ?? String(d.code), d.message);
    const inFile = diagnostics.filter((d) => !here.includes(d));
    if (inFile.length > 0) picks.push({ label: 'In this file', kind: vscode.QuickPickItemKind.Separator });
    for (const d of inFile) add(codeOf(d.code) ?? String(d.code), d.message);
  }
  picks.push({ label: 'All rules', kind: vscode.QuickPickItemKind.Separator });
  for (const code of [...titles.keys()].sort()) add(code);
  const picked = await vscode.window.showQuickPick(picks, {
    title: 'anf-lint rule documentation',
    placeHolder: 'Rule code or title',
    matchOnDescription: true,
  });
  return picked && 'code' in picked ? (picked as RulePick).code : undefined;
}

/** Code -> title, from the first heading of each shipped page (`# ANF204: soft mounts ...`). */
async function ruleTitles(rulesDir: vscode.Uri): Promise<Map<string, string>> {
  const titles = new Map<string, string>();
  let entries: [string, vscode.FileType][] = [];
  try {
    entries = await vscode.workspace.fs.readDirectory(rulesDir);
  } catch {
    return titles;
  }
  await Promise.all(
    entries
      .map(([name]) => name.replace(/\.md$/, ''))
      .filter((code) => RULE_CODE.test(code))
      .map(async (code) => {
        const bytes = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(rulesDir, `${code}.md`));
        const heading = new TextDecoder()
          .decode(bytes)
          .split('\n')
          .find((line) => line.startsWith('# '));
        titles.set(code, heading ? heading.replace(/^#\s*(ANF\d{3})?\s*[:—-]?\s*/, '').trim() : '');
      }),
  );
  return titles;
}
