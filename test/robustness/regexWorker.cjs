// Worker for regex.test.ts: runs every attack string against every pattern and reports progress,
// so the test can name a pattern that never finishes (exponential backtracking) and stop the worker.
const { parentPort, workerData } = require('node:worker_threads');

const { regexes, length } = workerData;
const SEPARATORS = [' ', '\t', 'a', 'A', '0', '.', ',', '=', ':', '/', '-', '_', '"', "'", '#', '\\', '\n', '\r\n', '$', '{', '}', '(', ')', '[', ']', '*', '&', ';', '<', '>', '@', '%', '!', '|', '~', '+', '?', 'x=', 'a,', ', ', ' #', '0.', 'a:', '- ', ' -', '=a', ':/', '${'];

/** The literal text a pattern starts with (after ^), so attacks get past the anchor. */
function literalPrefix(source) {
  const match = /^\^?((?:[A-Za-z0-9_ /:=#-]|\\[./-])*)/.exec(source);
  return (match ? match[1] : '').replace(/\\(.)/g, '$1');
}

/** Characters worth repeating: the separators above and every printable character the pattern names. */
function pumps(source) {
  const chars = new Set(SEPARATORS);
  for (const ch of source.replace(/\\[dDsSwWbB]/g, '')) if (ch >= ' ' && ch <= '~') chars.add(ch);
  return [...chars];
}

for (let i = 0; i < regexes.length; i++) {
  const { source, flags } = regexes[i];
  parentPort.postMessage({ started: i });
  let re;
  try {
    re = new RegExp(source, flags.replace(/[gy]/g, ''));
  } catch (error) {
    parentPort.postMessage({ invalid: i, message: String(error) });
    continue;
  }
  const prefix = literalPrefix(source);
  let worst = { ms: 0, attack: '' };
  for (const pump of pumps(source)) {
    const body = pump.repeat(Math.ceil(length / pump.length));
    for (const attack of [`${body}\u0000`, `${prefix}${body}\u0000`, `${prefix} ${body}!\n`, body]) {
      const started = performance.now();
      re.test(attack);
      const ms = performance.now() - started;
      if (ms > worst.ms) worst = { ms, attack: `${JSON.stringify(attack.slice(0, 24))}... (${attack.length} chars)` };
    }
  }
  parentPort.postMessage({ done: i, worst });
}
parentPort.postMessage({ finished: true });
