import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { Colors } from '../color';
import { UsageError, type CliIo } from '../io';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Every command takes `-h`/`--help`. */
const HELP = { help: { type: 'boolean', short: 'h' } } as const;

/**
 * parseArgs with the command's options and `--help`, with unknown or malformed flags turned into
 * a usage error that names the flag.
 */
export function parseOrUsage<T extends Options>(args: readonly string[], options: T, allowPositionals: boolean) {
  try {
    return parseArgs({ args: [...args], options: { ...options, ...HELP }, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(
      message.replace(/\. To specify a positional argument.*$/s, '').replace(/^Unknown option/, 'unknown option'),
    );
  }
}

/** Writes the command's usage when `--help` was given: the command then ends with EXIT.ok. */
export function wroteHelp(values: { readonly help?: boolean }, usage: string, io: CliIo): boolean {
  if (values.help) io.stdout.write(usage);
  return values.help === true;
}

/** A plain table: columns padded to their widest cell (colors not counted). */
export function table(headers: readonly string[], rows: readonly (readonly string[])[], colors: Colors): string {
  const visible = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '').length;
  const widths = headers.map((h, i) => Math.max(visible(h), ...rows.map((r) => visible(r[i] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visible(cell))))
      .join('  ')
      .trimEnd();
  return `${[colors.bold(line(headers)), ...rows.map(line)].join('\n')}\n`;
}
