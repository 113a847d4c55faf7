// The language server's build, shared by scripts/build.mjs, the CLI tests' set-up and
// bench/run.mjs: the bundle (server-bundle.js), the small loader that runs it (server.js,
// scripts/bundleLoader.cjs; the path editors and the VS Code client start) and V8's code cache for
// the bundle, made by running the built server once through a short editor session.
import { build } from 'esbuild';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { copyFile, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildWebTreeSitter, placeIacWasmFor, webTreeSitterLazy } from './iacWasm.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/** How long the code-cache session may take before the build fails. */
const SESSION_TIMEOUT_MS = 60_000; // not a fact: a bound on a build step that takes about a second

/**
 * Builds the server into `folder` with esbuild `options`. With the `webTreeSitterLazy` plugin,
 * web-tree-sitter's JavaScript goes into a file of its own next to the bundle.
 */
export async function buildServer(folder, options) {
  const outdir = resolve(folder);
  await mkdir(outdir, { recursive: true });
  await Promise.all([
    build({ ...options, entryPoints: { 'server-bundle': join(ROOT, 'server/src/lsp/main.ts') }, outdir }),
    options.plugins?.includes(webTreeSitterLazy) ? buildWebTreeSitter(outdir, options) : undefined,
  ]);
  await copyFile(join(ROOT, 'scripts/bundleLoader.cjs'), join(outdir, 'server.js'));
  // Node reads the nearest package.json to learn whether server.js is CommonJS (see cliBundle.mjs).
  await writeFile(join(outdir, 'package.json'), '{ "type": "commonjs" }\n');
  await makeServerCodeCache(outdir);
}

/**
 * The code cache: the functions a server compiles from its start to the first diagnostics of a
 * small workspace (examples/eda: an fstab, a manifest, sysctl, Terraform and Bicep files, opened
 * and scanned). Made by the Node that builds; another Node (VS Code's) rejects it and compiles as usual.
 */
export async function makeServerCodeCache(folder) {
  const outdir = resolve(folder);
  const cache = join(outdir, 'server-bundle.js.cache');
  await rm(cache, { force: true });
  await placeIacWasmFor(outdir);
  // Outside any git work tree, so that the session reads these files and nothing else.
  const scratch = mkdtempSync(join(tmpdir(), 'anf-lint-server-cache-'));
  try {
    cpSync(join(ROOT, 'examples', 'eda'), scratch, { recursive: true });
    await session(join(outdir, 'server.js'), scratch, cache);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  if (!existsSync(cache)) throw new Error('the server code-cache session wrote no cache');
}

const OPENED = [
  ['etc/fstab', 'fstab'],
  ['eda.anf.yaml', 'yaml'],
  ['etc/sysctl.d/90-nfs-client.conf', 'sysctl'],
  ['terraform/main.tf', 'terraform'],
  ['bicep/main.bicep', 'bicep'],
];

/** One editor session over stdio: initialize, open the files, wait for their diagnostics, shut down. */
function session(server, folder, cache) {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [server, '--stdio'], {
      cwd: folder,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ANF_LINT_BUILD_CODE_CACHE: cache },
    });
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`the server code-cache session did not end in ${SESSION_TIMEOUT_MS} ms: ${stderr}`));
    }, SESSION_TIMEOUT_MS);
    child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) done();
      else fail(new Error(`the server code-cache session ended with ${code}: ${stderr}`));
    });
    const send = (message) => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...message });
      child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    };
    const uris = OPENED.map(([path]) => pathToFileURL(join(folder, path)).href);
    const waiting = new Set(uris);
    const onMessage = (message) => {
      if (message.id === 1 && 'result' in message) {
        send({ method: 'initialized', params: {} });
        for (const [i, [path, languageId]] of OPENED.entries()) {
          const text = readFileSync(join(folder, path), 'utf8');
          send({
            method: 'textDocument/didOpen',
            params: { textDocument: { uri: uris[i], languageId, version: 1, text } },
          });
        }
      } else if (message.method === 'textDocument/publishDiagnostics') {
        if (waiting.delete(message.params.uri) && waiting.size === 0) send({ id: 2, method: 'shutdown', params: null });
      } else if (message.id === 2 && 'result' in message) {
        send({ method: 'exit', params: null });
      } else if (message.id !== undefined && message.method) {
        send({ id: message.id, result: null }); // a request of the server's (none is expected): answered
      }
    };
    let buffer = Buffer.alloc(0);
    child.stdout.on('data', (chunk) => {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        const headerEnd = buffer.indexOf('\r\n\r\n');
        if (headerEnd < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
        if (buffer.length < headerEnd + 4 + length) return;
        onMessage(JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString()));
        buffer = buffer.subarray(headerEnd + 4 + length);
      }
    });
    send({
      id: 1,
      method: 'initialize',
      params: { processId: process.pid, rootUri: pathToFileURL(folder).href, capabilities: {} },
    });
  });
}
