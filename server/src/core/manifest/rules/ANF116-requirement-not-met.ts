import { adviseSizing, type SizingOption, type SizingRequirement } from '../../calc/advisor';
import { monthlyPoolCost } from '../../calc/cost';
import { throughputMiBpsFromIops } from '../../calc/io';
import { ceilWhole, serviceLevelRateMiBpsPerTiB, volumeCeilingMiBps } from '../../calc/throughput';
import { lazyFinding, type Fix, type SpanEdit } from '../../diagnostics';
import { FLEXIBLE, POOL_LIMITS, VOLUME_LIMITS, type RegionPrices } from '../../facts';
import { defineRule } from '../../rules/rule';
import {
  bytesPerSecondToMiBps,
  bytesToTiB,
  formatMiBps,
  formatNumber,
  formatSizeIn,
  formatUsd,
  GiB,
  gibToTiB,
  KiB,
} from '../../units/units';
import { poolFlexibleThroughputMiBps, type ManifestFigures, type VolumeFigures } from '../figures';
import { originalOf } from '../lineage';
import {
  poolHasBasicNetworkFeatures,
  poolQos,
  volumeIsLarge,
  volumeNetworkFeatures,
  type ManifestPool,
  type ManifestVolume,
} from '../model';
import { volumeCoolAccess } from '../summary';
import {
  allocatedGiB,
  figuresOf,
  fixes,
  fixOf,
  insertAfterSibling,
  isManifest,
  Named,
  named,
  replaceValue,
  sizeLabel,
  sizeText,
  volumes,
  volumeValueSpans,
  manifestExample,
} from './helpers';
import type { SourceText, Span } from '../../text/sourceText';

export const requirementNotMet = defineRule({
  code: 'ANF116',
  name: 'requirement-not-met',
  domain: 'manifest',
  defaultSeverity: 'error',
  fixes: ['unsafe'],
  doc: {
    title: 'Volume cannot meet its requirements',
    what: "A volume whose configuration does not deliver what its `requirements` ask: a quota below the capacity needed, or a throughput limit below the throughput needed (stated, or IOPS x block size). One finding per volume, on the first requirement not met, naming every one that is not (the others are listed as related locations): one undersized quota is one problem with one fix. A shortage no quota can fix belongs to another rule and is not repeated here: throughput above the ceiling of the volume type (4,500 MiB/s regular, 12,800 MiB/s large) is ANF118, IOPS above what Microsoft's calculator measured a regular volume to deliver is ANF127. In Terraform, Bicep and ARM templates a volume's requirements are its `# anf: throughput=<rate> capacity=<size>` annotation or its `required_throughput_mibps` and `required_capacity_gib` tags (docs/iac.md).",
    why: 'An inappropriately sized quota is the number one reason for poor performance on Azure NetApp Files (NetApp performance-testing paper for Azure NetApp Files): with auto QoS the throughput limit is quota x service-level rate, not the data stored, and ANF holds the volume to it. The workload runs into the limit however fast the clients are.',
    instead:
      'Raise the quota to the smallest whole-GiB quota that meets the requirements (the first fix; it grows the pool too when needed), assign more throughput with manual QoS, or move to the configuration the sizing advisor finds cheapest (the second fix, offered when the volume has its pool to itself). The message gives both figures: what is needed and what the volume delivers. For a large volume, the message adds that one resize grows it by at most 30 % of its lowest provisioned size (Requirements and considerations for large volumes; adjustable by support request).',
    examples: [
      manifestExample(
        '- name: proj-pool\n  serviceLevel: Premium\n  size: 10 TiB\n  volumes:\n    - name: proj\n      quota: 10 TiB          # 640 MiB/s\n      requirements:\n        throughput: 950 MiB/s',
        '- name: proj-pool\n  serviceLevel: Premium\n  size: 15 TiB\n  volumes:\n    - name: proj\n      quota: 15200 GiB       # 950 MiB/s\n      requirements:\n        throughput: 950 MiB/s',
      ),
    ],
    sources: ['SL', 'SEED_PERF', 'SEED_COURSE', 'CALC', 'LV'],
  },
  appliesTo: isManifest,
  checkEstate(manifest, context) {
    const figures = figuresOf(context, manifest);
    // Remedies of earlier versions are reused only in a YAML manifest read incrementally (see remembered).
    const pricesKey = context.file.kind === 'manifest-yaml' ? pricesKeyOf(figures.prices) : undefined;
    for (const { pool, volume } of volumes(manifest)) {
      const req = volume.requirements;
      const level = pool.serviceLevel?.value;
      const f = figures.volume(volume);
      if (!req || !level || !volume.quota || !f || f.quotaGiB === undefined || !f.throughput) continue;
      const name = named('volume', volume.name);
      const large = volumeIsLarge(volume);
      const delivered = f.throughput.mibps;
      // Each unmet requirement: where it is written and what is missing. One volume, one finding.
      // The texts are written when the finding is placed (below): most findings of a large estate are only counted.
      const unmet: { span: Span; text: () => string }[] = [];

      if (req.capacity && f.requiredCapacityGiB !== undefined && f.quotaGiB < f.requiredCapacityGiB) {
        const needed = f.requiredCapacityGiB;
        const quotaGiB = f.quotaGiB;
        unmet.push({
          span: req.capacity.span,
          text: () =>
            `${formatSizeIn(needed * GiB, 'TiB')} of capacity (its quota is ${formatSizeIn(quotaGiB * GiB, 'TiB')})`,
        });
      }
      const required = f.requiredThroughputMiBps;
      // Beyond what a volume of its kind can deliver at all: ANF118 owns that shortage (no quota reaches it).
      const ownedByCeilingRule =
        required !== undefined && required > volumeCeilingMiBps(large, volume.breakthroughMode?.value ?? false);
      if (required !== undefined && delivered < required && !ownedByCeilingRule) {
        const how = () => describeDelivery(pool, volume, f);
        const stated = req.throughput ? bytesPerSecondToMiBps(req.throughput.value.bytesPerSecond) : undefined;
        if (req.throughput && stated !== undefined && stated > delivered) {
          unmet.push({
            span: req.throughput.span,
            text: () => `${formatMiBps(stated)} (it delivers ${formatMiBps(delivered)}: ${how()})`,
          });
        }
        // Above the measured IOPS ceiling of a regular volume: ANF127 owns it (a bigger quota does not help).
        const ownedByIopsRule =
          f.requiredIops !== undefined && f.ioCeiling !== undefined && f.requiredIops > f.ioCeiling.iops;
        if (req.iops && f.requiredIops !== undefined && !ownedByIopsRule) {
          const fromIops = throughputMiBpsFromIops(f.requiredIops, f.blockSizeBytes);
          if (fromIops > delivered) {
            const requiredIops = f.requiredIops;
            unmet.push({
              span: req.iops.span,
              text: () => {
                const block = `${formatNumber(f.blockSizeBytes / KiB)} KiB${f.blockSizeAssumed ? ' (assumed)' : ''}`;
                return `${formatNumber(requiredIops, 0)} IOPS at ${block} = ${formatMiBps(fromIops)} (it delivers ${formatMiBps(delivered)} = ${formatNumber(f.iopsAtBlockSize ?? 0, 0)} IOPS at that block size: ${how()})`;
              },
            });
          }
        }
      }
      if (unmet.length === 0) continue;

      const source = context.file.source;
      const quota = volume.quota;
      // The remedy (the raise fix and the sizing advisor's option) is worked out when the engine
      // places the finding: a report lists the first findings of a rule (ANF010), and an estate
      // with a thousand unmet requirements should not run the advisor a thousand times per edit.
      let remedy: Remedy | undefined =
        pricesKey === undefined ? undefined : (remembered(volume, pool, pricesKey) ?? moved(volume, pool, pricesKey));
      const resolve = () => {
        if (remedy) return remedy;
        const raise = raiseFix(source, pool, volume, f, figures);
        const advice = advisorOption(pool, volume, f, figures);
        const adviceFix = advice ? advisorFix(source, pool, volume, advice) : undefined;
        const text = [
          raise?.summary,
          advice ? `or, cheapest by the sizing advisor: ${describeOption(advice)}` : undefined,
        ]
          .filter(Boolean)
          .join('; ');
        remedy = {
          message: `${Named('volume', volume.name)} needs ${unmet.map((u) => u.text()).join(', and ')}.${text ? ` Fix: ${text}.` : ''}`,
          fixes: fixes(raise?.fix, adviceFix).fixes,
        };
        if (pricesKey !== undefined) REMEDIES.set(volume, { pool, pricesKey, remedy });
        return remedy;
      };
      const [first, ...others] = unmet;
      context.report(
        lazyFinding({ span: first!.span, restsOn: volumeValueSpans(pool, volume) }, () => ({
          ...resolve(),
          related: [
            { uri: context.file.uri, span: quota.span, message: `quota of ${name}` },
            ...others.map((o) => ({ uri: context.file.uri, span: o.span, message: `also not met for ${name}` })),
          ],
        })),
      );
    }
  },
});

interface Remedy {
  readonly message: string;
  readonly fixes: Fix[] | undefined;
}

/**
 * The remedy worked out for a volume in an earlier version of the same YAML manifest. An
 * incremental read (manifest/incremental.ts) keeps the very objects of everything before the edit
 * and makes new ones for the rest; a whole parse makes all new. So the same volume and pool
 * objects mean the same values, spans and text of the volume and of its whole pool (all the
 * remedy reads, with the prices): the remedy is the same. About half the listed findings of a
 * typical edit, and all of them when an edit is undone back to the last well-formed version.
 */
function remembered(volume: ManifestVolume, pool: ManifestPool, pricesKey: string): Remedy | undefined {
  const earlier = REMEDIES.get(volume);
  return earlier && earlier.pool === pool && earlier.pricesKey === pricesKey ? earlier.remedy : undefined;
}

const REMEDIES = new WeakMap<
  ManifestVolume,
  { readonly pool: ManifestPool; readonly pricesKey: string; readonly remedy: Remedy }
>();

/**
 * The remedy of the volume this one was copied from (lineage.ts), moved: when its whole pool
 * moved by one length (an edit before the pool moves all of it and changes none of it; an edit
 * inside it leaves its start where it was), every volume of the pool is a moved copy of the
 * earlier pool's, and every fix edit is in or after the pool. Spans are all the remedy holds of
 * its place in the text. About half the listed findings of a typical edit.
 */
function moved(volume: ManifestVolume, pool: ManifestPool, pricesKey: string): Remedy | undefined {
  const earlierVolume = originalOf(volume);
  const earlierPool = originalOf(pool);
  if (!earlierVolume || !earlierPool) return undefined;
  const earlier = REMEDIES.get(earlierVolume);
  if (!earlier || earlier.pool !== earlierPool || earlier.pricesKey !== pricesKey) return undefined;
  const delta = pool.span.start - earlierPool.span.start;
  if (
    delta === 0 ||
    pool.span.end - earlierPool.span.end !== delta ||
    volume.span.start - earlierVolume.span.start !== delta
  )
    return undefined;
  if (
    pool.volumes.length !== earlierPool.volumes.length ||
    pool.volumes.some((v, i) => originalOf(v) !== earlierPool.volumes[i])
  )
    return undefined;
  const fixes = earlier.remedy.fixes;
  if (
    fixes?.some((fix) => fix.edits.some((edit) => edit.uri !== undefined || edit.span.start < earlierPool.span.start))
  )
    return undefined;
  const remedy: Remedy = {
    message: earlier.remedy.message,
    fixes: fixes?.map((fix) => ({
      ...fix,
      edits: fix.edits.map((edit) => ({
        ...edit,
        span: { start: edit.span.start + delta, end: edit.span.end + delta },
      })),
    })),
  };
  REMEDIES.set(volume, { pool, pricesKey, remedy });
  return remedy;
}

function pricesKeyOf(prices: RegionPrices): string {
  let key = pricesKeys.get(prices);
  if (key === undefined) pricesKeys.set(prices, (key = JSON.stringify(prices)));
  return key;
}

function describeDelivery(pool: ManifestPool, volume: ManifestVolume, f: VolumeFigures): string {
  const level = pool.serviceLevel?.value ?? 'Standard';
  if (f.throughput?.basis === 'assigned') return `assigned with manual QoS`;
  const cool = volumeCoolAccess(volume) ? ' with cool access' : '';
  const capped = f.throughput?.capped ? `, capped at the ${formatMiBps(f.throughput.ceilingMiBps)} volume ceiling` : '';
  return `${level}${cool} at ${f.throughput?.rateMiBpsPerTiB ?? 0} MiB/s per TiB x ${formatSizeIn((f.quotaGiB ?? 0) * GiB, 'TiB')}${capped}`;
}

/** The first fix: raise what this pool's QoS type makes the lever (quota for auto, assigned throughput for manual). */
function raiseFix(
  source: SourceText,
  pool: ManifestPool,
  volume: ManifestVolume,
  f: VolumeFigures,
  figures: ManifestFigures,
): { fix?: Fix; summary: string } | undefined {
  const level = pool.serviceLevel?.value;
  if (!level || !volume.quota || f.quotaGiB === undefined) return undefined;
  const large = volumeIsLarge(volume);
  const maxQuota = volume.breakthroughMode?.value
    ? VOLUME_LIMITS.breakthroughMaxGiB.value
    : large
      ? VOLUME_LIMITS.largeMaxGiB.value
      : VOLUME_LIMITS.regularMaxGiB.value;
  const edits: (SpanEdit | undefined)[] = [];
  const parts: string[] = [];
  const poolSizeGiB = pool.size ? pool.size.value.bytes / GiB : undefined;
  const newQuota = Math.max(f.quotaGiB, f.quotaNeededGiB ?? f.quotaGiB);
  if (newQuota > maxQuota) return undefined;
  if (newQuota > f.quotaGiB) {
    edits.push(replaceValue(volume.quota, sizeText(newQuota)));
    // LV: one resize grows a large volume by at most 30 % of its lowest provisioned size (adjustable by support request).
    const growthLimitGiB = f.quotaGiB * (1 + VOLUME_LIMITS.largeGrowthPercent.value / 100);
    const growthNote =
      large && volume.quota && newQuota > growthLimitGiB
        ? ` (if the volume exists at ${sizeLabel(f.quotaGiB)}: a large volume grows by at most ${VOLUME_LIMITS.largeGrowthPercent.value}% of its lowest provisioned size per resize, so several resizes or a support request)`
        : '';
    parts.push(
      `raise the quota to ${newQuota % 1024 === 0 ? sizeLabel(newQuota) : `${formatNumber(newQuota, 0)} GiB (${sizeLabel(newQuota)})`}${growthNote}`,
    );
  }
  let newPoolTiB: number | undefined;
  const allocated = allocatedGiB(pool) - f.quotaGiB + newQuota;
  if (poolSizeGiB !== undefined && allocated > poolSizeGiB) newPoolTiB = ceilWhole(gibToTiB(allocated));

  if (
    poolQos(pool) === 'manual' &&
    f.requiredThroughputMiBps !== undefined &&
    (f.throughput?.mibps ?? 0) < f.requiredThroughputMiBps
  ) {
    const newAssigned = ceilWhole(f.requiredThroughputMiBps);
    edits.push(
      volume.throughput
        ? replaceValue(volume.throughput, `${newAssigned} MiB/s`)
        : insertAfterSibling(source, volume.quota, 'throughput', `${newAssigned} MiB/s`),
    );
    parts.push(`assign ${formatMiBps(newAssigned)}`);
    const poolFigures = figures.pool(pool);
    const assignedTotal = (poolFigures?.usedMiBps ?? 0) - (f.throughput?.mibps ?? 0) + newAssigned;
    if (level === 'Flexible') {
      const poolThroughput = poolFlexibleThroughputMiBps(pool) ?? FLEXIBLE.baselineThroughputMiBps.value;
      if (assignedTotal > poolThroughput) {
        edits.push(
          pool.throughput
            ? replaceValue(pool.throughput, `${ceilWhole(assignedTotal)} MiB/s`)
            : insertAfterSibling(source, pool.serviceLevel, 'throughput', `${ceilWhole(assignedTotal)} MiB/s`),
        );
        parts.push(`raise the pool throughput to ${formatMiBps(ceilWhole(assignedTotal))}`);
        const forThroughput = ceilWhole(assignedTotal / FLEXIBLE.maxThroughputMiBpsPerTiB.value);
        if (poolSizeGiB !== undefined && forThroughput > gibToTiB(poolSizeGiB))
          newPoolTiB = Math.max(newPoolTiB ?? 0, forThroughput);
      }
    } else {
      const rate = serviceLevelRateMiBpsPerTiB(level) ?? 1;
      const forBudget = ceilWhole(assignedTotal / rate);
      if (poolSizeGiB !== undefined && forBudget > gibToTiB(poolSizeGiB))
        newPoolTiB = Math.max(newPoolTiB ?? 0, forBudget);
    }
  }
  if (newPoolTiB !== undefined) {
    const min = poolHasBasicNetworkFeatures(pool)
      ? POOL_LIMITS.minTiBWithBasicNetworkFeatures.value
      : POOL_LIMITS.minTiB.value;
    newPoolTiB = Math.max(newPoolTiB, min);
    if (newPoolTiB > POOL_LIMITS.maxTiB.value) return undefined;
    edits.push(replaceValue(pool.size, `${newPoolTiB} TiB`));
    const cost = monthlyPoolCost(
      {
        serviceLevel: level,
        sizeTiB: newPoolTiB,
        ...(poolFlexibleThroughputMiBps(pool) !== undefined
          ? { flexibleThroughputMiBps: poolFlexibleThroughputMiBps(pool)! }
          : {}),
      },
      figures.prices,
    );
    parts.push(`grow the pool to ${newPoolTiB} TiB (${formatUsd(cost.totalUsd)}/month)`);
  }
  if (parts.length === 0) return undefined;
  const summary = parts.join(', ');
  return {
    summary,
    ...(fixOf.unsafe(capitalize(summary), edits) ? { fix: fixOf.unsafe(capitalize(summary), edits)! } : {}),
  };
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The advisor's cheapest feasible option, when it is cheaper than this pool as it is. */
function advisorOption(
  pool: ManifestPool,
  volume: ManifestVolume,
  f: VolumeFigures,
  figures: ManifestFigures,
): SizingOption | undefined {
  const best = cheapestFeasible(
    {
      capacityGiB: Math.max(f.requiredCapacityGiB ?? 0, f.quotaGiB ?? 0),
      ...(f.requiredThroughputMiBps !== undefined ? { throughputMiBps: f.requiredThroughputMiBps } : {}),
      ...(volume.requirements?.iops && f.requiredIops !== undefined
        ? { iops: f.requiredIops, blockSizeBytes: f.blockSizeBytes }
        : {}),
      ...(volume.requirements?.readPercent ? { readPercent: volume.requirements.readPercent.value } : {}),
      ...(volume.workload ? { workload: volume.workload.value } : {}),
      coolAccess: volumeCoolAccess(volume),
      networkFeatures: volumeNetworkFeatures(pool, volume),
    },
    figures.prices,
  );
  if (!best) return undefined;
  if (best.serviceLevel === pool.serviceLevel?.value) return undefined;
  return best;
}

/**
 * The advisor's cheapest feasible option for a requirement, remembered: an edit changes one
 * volume, and every other volume asks again with the same requirement and prices. A pure function
 * of its inputs (the key is all of them), so a remembered answer is the answer.
 */
function cheapestFeasible(requirement: SizingRequirement, prices: RegionPrices): SizingOption | undefined {
  const key = pricesKeyOf(prices) + JSON.stringify(requirement);
  if (advised.has(key)) return advised.get(key) ?? undefined;
  const best = adviseSizing(requirement, prices).find((o) => o.feasible);
  if (advised.size >= ADVISED_MAX) advised.clear();
  advised.set(key, best ?? null);
  return best;
}

const pricesKeys = new WeakMap<RegionPrices, string>();
const advised = new Map<string, SizingOption | null>();
const ADVISED_MAX = 20_000; // not a fact: a bound on remembered advisor answers (an estate's distinct requirements)

function describeOption(option: SizingOption): string {
  const throughput =
    option.flexibleThroughputMiBps !== undefined ? ` at ${formatMiBps(option.flexibleThroughputMiBps)}` : '';
  const volumesText =
    option.volumeCount > 1
      ? `${option.volumeCount} regular volumes of ${sizeLabel(option.quotaGiB)}`
      : `${sizeLabel(option.quotaGiB)} quota`;
  return `${option.serviceLevel}${throughput}, ${volumesText} in a ${option.poolSizeTiB} TiB${option.volumeCount > 1 ? ' manual QoS' : ''} pool, delivering ${formatMiBps(option.throughputMiBps)} for ${formatUsd(option.monthlyCostUsd)}/month`;
}

/** Only when the volume has the pool to itself: changing the pool's service level changes every volume in it. */
function advisorFix(
  source: SourceText,
  pool: ManifestPool,
  volume: ManifestVolume,
  option: SizingOption,
): Fix | undefined {
  // One volume's edits cannot spread it over several volumes: that option is described, not applied.
  if (pool.volumes.length !== 1 || option.volumeCount !== 1 || !pool.serviceLevel || !pool.size || !volume.quota)
    return undefined;
  const edits: (SpanEdit | undefined)[] = [
    replaceValue(pool.serviceLevel, option.serviceLevel),
    replaceValue(pool.size, `${option.poolSizeTiB} TiB`),
    replaceValue(volume.quota, sizeText(option.quotaGiB)),
  ];
  if (option.serviceLevel === 'Flexible') {
    const throughput = `${option.flexibleThroughputMiBps ?? FLEXIBLE.baselineThroughputMiBps.value} MiB/s`;
    if (pool.qos) edits.push(replaceValue(pool.qos, 'manual'));
    edits.push(
      pool.throughput
        ? replaceValue(pool.throughput, throughput)
        : insertAfterSibling(source, pool.serviceLevel, 'throughput', throughput),
    );
    edits.push(
      volume.throughput
        ? replaceValue(volume.throughput, throughput)
        : insertAfterSibling(source, volume.quota, 'throughput', throughput),
    );
  } else if (pool.qos?.value === 'manual' || pool.serviceLevel.value === 'Flexible') {
    if (!pool.qos) return undefined;
    edits.push(replaceValue(pool.qos, 'auto'));
  }
  if (option.largeVolume && !(volume.largeVolume?.value ?? false)) return undefined;
  const poolTiB = bytesToTiB(pool.size.value.bytes);
  return fixOf.unsafe(
    `Move to ${option.serviceLevel}: ${sizeText(option.quotaGiB)} quota, ${option.poolSizeTiB} TiB pool (was ${formatNumber(poolTiB)} TiB ${pool.serviceLevel.value})`,
    edits,
  );
}
