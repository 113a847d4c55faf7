/**
 * Terminal colors: on a TTY only, NO_COLOR turns them off, FORCE_COLOR on (https://no-color.org,
 * https://force-color.org). FORCE_COLOR=0 counts as off.
 */
export interface Colors {
  readonly enabled: boolean;
  red(text: string): string;
  yellow(text: string): string;
  blue(text: string): string;
  cyan(text: string): string;
  green(text: string): string;
  dim(text: string): string;
  bold(text: string): string;
  underline(text: string): string;
}

export function colorsEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const ESC = '\u001b[';

function style(enabled: boolean, open: string, close: string): (text: string) => string {
  return enabled ? (text) => `${ESC}${open}m${text}${ESC}${close}m` : (text) => text;
}

export function createColors(enabled: boolean): Colors {
  // SGR codes as strings: red 31, yellow 33, blue 34, cyan 36, green 32, dim 2, bold 1, underline 4.
  return {
    enabled,
    red: style(enabled, '31', '39'),
    yellow: style(enabled, '33', '39'),
    blue: style(enabled, '34', '39'),
    cyan: style(enabled, '36', '39'),
    green: style(enabled, '32', '39'),
    dim: style(enabled, '2', '22'),
    bold: style(enabled, '1', '22'),
    underline: style(enabled, '4', '24'),
  };
}
