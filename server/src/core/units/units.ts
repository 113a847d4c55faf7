/**
 * Sizes, rates, counts and durations the way people write them: `4TiB`, `4 TiB`, `10TB`,
 * `640MiB/s`, `1.5 GB/s`, `100k`, `1.909 ms`. Binary (KiB, MiB, ...) and decimal (KB, MB, ...)
 * units are different numbers: ANF sizes and bills in binary units, so a decimal unit is kept
 * as such (and reported) rather than silently reinterpreted.
 *
 * The multipliers here are definitions of the units, not facts about ANF.
 */

export type UnitSystem = 'binary' | 'decimal';

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

export interface Size {
  readonly bytes: number;
  /** The number as written, before the unit. */
  readonly amount: number;
  /** The unit as written, normalized (`TiB`, `TB`, `B`). */
  readonly unit: string;
  readonly system: UnitSystem;
}

export interface Rate {
  readonly bytesPerSecond: number;
  readonly amount: number;
  readonly unit: string;
  readonly system: UnitSystem;
  /** True when the unit counted bits (Mbps, Gbit/s). */
  readonly bits: boolean;
}

export const KiB = 1024;
export const MiB = KiB * 1024;
export const GiB = MiB * 1024;
export const TiB = GiB * 1024;
export const PiB = TiB * 1024;

const BINARY_PREFIX = { '': 1, Ki: KiB, Mi: MiB, Gi: GiB, Ti: TiB, Pi: PiB } as const;
const DECIMAL_PREFIX = { '': 1, K: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15 } as const;
const PREFIX_LETTERS = ['K', 'M', 'G', 'T', 'P'] as const;

export const ACCEPTED_SIZE_FORMS = '4TiB, 4 TiB, 100GiB, 512 MiB, 1.5 PiB (binary) or 10TB, 500 GB (decimal)';
export const ACCEPTED_RATE_FORMS =
  '640MiB/s, 640 MiBps, 1.5 GiB/s (binary), 1.5 GB/s (decimal), 10 Gbps or 800 Mbit/s (bits)';
export const ACCEPTED_COUNT_FORMS = '100000, 100,000, 100k, 1.5M';
export const ACCEPTED_DURATION_FORMS = '0.5ms, 1.909 ms, 500us, 2 s';

const NUMBER = String.raw`([0-9][0-9_,]*(?:\.[0-9]+)?|\.[0-9]+)`;
// Anchored, no nested quantifiers: linear time on any input.
const SIZE_RE = new RegExp(String.raw`^\s*${NUMBER}\s*([KMGTP]?)(i?)(B?)\s*$`, 'i');
const RATE_RE = new RegExp(String.raw`^\s*${NUMBER}\s*([kKMGTP]?)(i?)(B|b|bit|bits)?\s*(/\s*s|/\s*sec|ps)\s*$`);
const COUNT_RE = new RegExp(String.raw`^\s*${NUMBER}\s*([kKmM]?)\s*$`);
const DURATION_RE = new RegExp(
  String.raw`^\s*${NUMBER}\s*(ns|us|µs|ms|s|sec|seconds?|milliseconds?|microseconds?)\s*$`,
  'i',
);

function parseNumber(text: string): number | undefined {
  // Thousands separators are fine ("100,000"); a comma as decimal mark is not supported.
  const cleaned = text.replace(/[_,]/g, '');
  const value = Number(cleaned);
  return Number.isFinite(value) ? value : undefined;
}

function prefixMultiplier(letter: string, binary: boolean): number | undefined {
  const upper = letter.toUpperCase();
  if (upper === '') return 1;
  if (!(PREFIX_LETTERS as readonly string[]).includes(upper)) return undefined;
  return binary
    ? BINARY_PREFIX[`${upper}i` as keyof typeof BINARY_PREFIX]
    : DECIMAL_PREFIX[upper as keyof typeof DECIMAL_PREFIX];
}

/**
 * Parses a size. `4TiB` is binary; `4TB` is decimal; a bare prefix letter (`4T`, as `df -h`
 * prints) is read as binary. A bare number is an error: the unit is never guessed.
 */
export function parseSize(text: string): Parsed<Size> {
  const match = SIZE_RE.exec(text);
  if (!match) return { ok: false, error: `"${text.trim()}" is not a size. Write it as ${ACCEPTED_SIZE_FORMS}.` };
  const [, numberText = '', prefix = '', binaryMark = '', byteMark = ''] = match;
  const amount = parseNumber(numberText);
  if (amount === undefined) return { ok: false, error: `"${numberText}" is not a number.` };
  if (prefix === '' && byteMark === '') {
    return { ok: false, error: `"${text.trim()}" has no unit. Write it as ${ACCEPTED_SIZE_FORMS}.` };
  }
  if (prefix === '' && binaryMark !== '') {
    return { ok: false, error: `"${text.trim()}" is not a size. Write it as ${ACCEPTED_SIZE_FORMS}.` };
  }
  // "4T" and "4Ti" are binary shorthand; "4TB" is decimal; "4TiB" binary.
  const binary = binaryMark !== '' || byteMark === '';
  const multiplier = prefixMultiplier(prefix, binary);
  if (multiplier === undefined)
    return { ok: false, error: `Unknown unit in "${text.trim()}". Write it as ${ACCEPTED_SIZE_FORMS}.` };
  const upper = prefix.toUpperCase();
  const unit = upper === '' ? 'B' : `${upper}${binary ? 'i' : ''}B`;
  return {
    ok: true,
    value: { bytes: amount * multiplier, amount, unit, system: binary || upper === '' ? 'binary' : 'decimal' },
  };
}

/** Parses a data rate: bytes (`MiB/s`, `MB/s`, `MiBps`) or bits (`Mbps`, `Gbit/s`). */
export function parseRate(text: string): Parsed<Rate> {
  const match = RATE_RE.exec(text);
  if (!match) return { ok: false, error: `"${text.trim()}" is not a rate. Write it as ${ACCEPTED_RATE_FORMS}.` };
  const [, numberText = '', prefix = '', binaryMark = '', byteOrBit = '', per = ''] = match;
  const amount = parseNumber(numberText);
  if (amount === undefined) return { ok: false, error: `"${numberText}" is not a number.` };
  // "Mbps" counts bits by convention; "MBps"/"MB/s" bytes; a bare "M/s" is rejected as ambiguous.
  const bits = byteOrBit === 'b' || byteOrBit === 'bit' || byteOrBit === 'bits' || (byteOrBit === '' && per === 'ps');
  if (byteOrBit === '' && per !== 'ps') {
    return { ok: false, error: `"${text.trim()}" does not say bytes or bits. Write it as ${ACCEPTED_RATE_FORMS}.` };
  }
  const binary = binaryMark !== '';
  const multiplier = prefixMultiplier(prefix, binary);
  if (multiplier === undefined)
    return { ok: false, error: `Unknown unit in "${text.trim()}". Write it as ${ACCEPTED_RATE_FORMS}.` };
  const upper = prefix.toUpperCase();
  const unit = bits ? `${upper}${binary ? 'i' : ''}bit/s` : `${upper}${binary ? 'i' : ''}B/s`;
  const bytesPerSecond = (amount * multiplier) / (bits ? 8 : 1);
  return {
    ok: true,
    value: { bytesPerSecond, amount, unit, bits, system: binary || upper === '' ? 'binary' : 'decimal' },
  };
}

/** Parses a count: `100000`, `100,000`, `100k`, `1.5M` (k and M are decimal thousands and millions). */
export function parseCount(text: string): Parsed<number> {
  const match = COUNT_RE.exec(text);
  if (!match) return { ok: false, error: `"${text.trim()}" is not a count. Write it as ${ACCEPTED_COUNT_FORMS}.` };
  const [, numberText = '', suffix = ''] = match;
  const amount = parseNumber(numberText);
  if (amount === undefined) return { ok: false, error: `"${numberText}" is not a number.` };
  const multiplier = suffix === '' ? 1 : suffix.toLowerCase() === 'k' ? 1e3 : 1e6;
  return { ok: true, value: amount * multiplier };
}

/** Parses a duration into seconds. */
export function parseDuration(text: string): Parsed<number> {
  const match = DURATION_RE.exec(text);
  if (!match)
    return { ok: false, error: `"${text.trim()}" is not a duration. Write it as ${ACCEPTED_DURATION_FORMS}.` };
  const [, numberText = '', unitText = ''] = match;
  const amount = parseNumber(numberText);
  if (amount === undefined) return { ok: false, error: `"${numberText}" is not a number.` };
  const unit = unitText.toLowerCase();
  const scale =
    unit === 'ns'
      ? 1e-9
      : unit === 'us' || unit === 'µs' || unit.startsWith('micro')
        ? 1e-6
        : unit === 'ms' || unit.startsWith('milli')
          ? 1e-3
          : 1;
  return { ok: true, value: amount * scale };
}

/** The same size in the other system: what `10TB` would have been as `10TiB`. */
export function asBinaryIntent(size: Size): Size {
  if (size.system === 'binary') return size;
  const letter = size.unit.charAt(0);
  const multiplier = prefixMultiplier(letter, true) ?? 1;
  return { bytes: size.amount * multiplier, amount: size.amount, unit: `${letter}iB`, system: 'binary' };
}

// ---------------------------------------------------------------------------------------------
// Formatting

const BINARY_UNITS = [
  ['PiB', PiB],
  ['TiB', TiB],
  ['GiB', GiB],
  ['MiB', MiB],
  ['KiB', KiB],
] as const;

/** Rounds for display: up to `digits` significant decimals, trailing zeros dropped, thousands grouped. */
export function formatNumber(value: number, maxFractionDigits = 2): string {
  // What Intl.NumberFormat('en-US') writes, without it: the first Intl call loads ICU's locale
  // data, about 10 ms of every CLI start-up (issue 17). Intl still formats what this does not
  // cover (exponents, infinities); test/unit/units.test.ts compares the two.
  const digits = Math.abs(value).toString();
  if (
    !Number.isFinite(value) ||
    digits.includes('e') ||
    !Number.isInteger(maxFractionDigits) ||
    maxFractionDigits < 0 ||
    maxFractionDigits > MAX_FRACTION_DIGITS
  )
    return numberFormat(maxFractionDigits).format(value);
  const point = digits.indexOf('.');
  let whole = point < 0 ? digits : digits.slice(0, point);
  let fraction = point < 0 ? '' : digits.slice(point + 1);
  if (fraction.length > maxFractionDigits) {
    // Half away from zero on the shortest decimal form of the number, as ICU rounds.
    const up = fraction.charCodeAt(maxFractionDigits) >= DIGIT_FIVE;
    fraction = fraction.slice(0, maxFractionDigits);
    if (up) {
      const bumped = incrementDecimal(whole + fraction);
      whole = bumped.slice(0, bumped.length - fraction.length);
      fraction = bumped.slice(bumped.length - fraction.length);
    }
  }
  fraction = fraction.replace(/0+$/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  return `${value < 0 || Object.is(value, -0) ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}

const MAX_FRACTION_DIGITS = 20; // not a fact: Intl's limit for maximumFractionDigits
const DIGIT_FIVE = 53; // not a fact: the character code of '5'

/** `129` -> `130`, `999` -> `1000`: a string of decimal digits plus one. */
function incrementDecimal(digits: string): string {
  let i = digits.length - 1;
  while (i >= 0 && digits[i] === '9') i--;
  if (i < 0) return `1${'0'.repeat(digits.length)}`;
  return `${digits.slice(0, i)}${String(Number(digits[i]) + 1)}${'0'.repeat(digits.length - 1 - i)}`;
}

/**
 * One `Intl.NumberFormat` per precision, made once: `toLocaleString` with options builds a new
 * formatter on every call, which made figures and messages the hottest code in a large manifest.
 */
const NUMBER_FORMATS = new Map<number, Intl.NumberFormat>();
function numberFormat(maxFractionDigits: number): Intl.NumberFormat {
  let format = NUMBER_FORMATS.get(maxFractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: maxFractionDigits, useGrouping: true });
    NUMBER_FORMATS.set(maxFractionDigits, format);
  }
  return format;
}

/** `4 TiB`, `1.53 GiB`, `512 MiB`: the largest binary unit that keeps the number at least 1. */
export function formatSize(bytes: number, maxFractionDigits = 2): string {
  for (const [unit, multiplier] of BINARY_UNITS) {
    if (Math.abs(bytes) >= multiplier) return `${formatNumber(bytes / multiplier, maxFractionDigits)} ${unit}`;
  }
  return `${formatNumber(bytes, 0)} B`;
}

/** A size in one given binary unit: `formatSizeIn(bytes, 'GiB')` → `15,200 GiB`. */
export function formatSizeIn(
  bytes: number,
  unit: 'KiB' | 'MiB' | 'GiB' | 'TiB' | 'PiB',
  maxFractionDigits = 2,
): string {
  const multiplier = BINARY_UNITS.find(([name]) => name === unit)?.[1] ?? 1;
  return `${formatNumber(bytes / multiplier, maxFractionDigits)} ${unit}`;
}

/** `640 MiB/s`, `1.53 GiB/s`. */
export function formatRate(bytesPerSecond: number, maxFractionDigits = 2): string {
  for (const [unit, multiplier] of BINARY_UNITS) {
    if (Math.abs(bytesPerSecond) >= multiplier)
      return `${formatNumber(bytesPerSecond / multiplier, maxFractionDigits)} ${unit}/s`;
  }
  return `${formatNumber(bytesPerSecond, 0)} B/s`;
}

export function formatMiBps(mibps: number, maxFractionDigits = 2): string {
  return `${formatNumber(mibps, maxFractionDigits)} MiB/s`;
}

export function formatUsd(amount: number): string {
  // What Intl's en-US dollar format writes, from formatNumber: the first Intl call loads ICU's data
  // (about 45 ms of a run over a repository with one pool, issue 29). Cents always shown; Intl
  // still formats what formatNumber hands to it (exponents, infinities): test/unit/units.test.ts.
  const digits = Math.abs(amount).toString();
  if (Number.isFinite(amount) && !digits.includes('e')) {
    const plain = formatNumber(amount, 2);
    const negative = plain.startsWith('-');
    const [whole, fraction = ''] = (negative ? plain.slice(1) : plain).split('.');
    return `${negative ? '-' : ''}$${whole}.${fraction.padEnd(2, '0')}`;
  }
  // Made on first use.
  USD_FORMAT ??= new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 2 });
  return USD_FORMAT.format(amount);
}

let USD_FORMAT: Intl.NumberFormat | undefined;

export function formatDuration(seconds: number): string {
  if (seconds >= 1) return `${formatNumber(seconds, 3)} s`;
  if (seconds >= 1e-3) return `${formatNumber(seconds * 1e3, 3)} ms`;
  return `${formatNumber(seconds * 1e6, 1)} µs`;
}

// Conversions used throughout the core, named so call sites read in the domain's units.
export const bytesToGiB = (bytes: number): number => bytes / GiB;
export const bytesToTiB = (bytes: number): number => bytes / TiB;
export const gibToBytes = (gib: number): number => gib * GiB;
export const tibToGiB = (tib: number): number => (tib * TiB) / GiB;
export const gibToTiB = (gib: number): number => (gib * GiB) / TiB;
export const bytesPerSecondToMiBps = (bps: number): number => bps / MiB;
export const mibpsToBytesPerSecond = (mibps: number): number => mibps * MiB;
