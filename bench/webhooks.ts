/** 3. Webhook parsing against bare JSON.parse, and source-address checks per second. */
import { isAllowedSourceIp, parseWebhook, WEBHOOK_SOURCE_RANGES } from 'emporio/webhooks';
import { fullNewOrderEvent } from './full-order.js';
import { isAllowedReference } from '../test/reliability/ip-reference.js';
import { compare, fmt, type Row } from './harness.js';

const PARSES = 20_000;
const IP_CHECKS = 2_000_000;
/** The reference is far slower; fewer calls give the same precision. */
const REFERENCE_CHECKS = 30_000;

/** Inside and outside the documented ranges, IPv6, IPv4-mapped, and malformed input. */
const ADDRESSES = [
  '185.6.76.1',
  '185.6.79.255',
  '185.6.80.0',
  '3.73.204.153',
  '10.0.0.1',
  '192.168.1.20',
  '2a03:e40::1',
  '2a03:e41::1',
  '::ffff:185.6.77.10',
  '2001:db8::8a2e:370:7334',
  '::1',
  'not-an-ip',
  '256.1.1.1',
  '[2a03:e40:0:0:0:0:0:42]',
  '108.129.50.199',
  '63.34.193.173',
];

export async function benchWebhooks(): Promise<Row[]> {
  const event = fullNewOrderEvent();
  const text = JSON.stringify(event);
  if (parseWebhook(text).event_type !== 'new_order') throw new Error('the full order event did not parse');
  // The same order after the service changed a member's type: the slow path (zod, then the drift report).
  const drifted = JSON.stringify({ ...event, order: { ...(event.order as object), custom: 7 } });
  let reports = 0;
  const onDrift = () => void reports++;
  parseWebhook(drifted, { onDrift });
  if (reports !== 1) throw new Error('the drifted order was not reported');
  let sink = 0;
  const parse = await compare({
    parseWebhook: () => {
      for (let i = 0; i < PARSES; i++) sink += parseWebhook(text).event_type.length;
    },
    'parseWebhook (drifted)': () => {
      for (let i = 0; i < PARSES / 10; i++) sink += parseWebhook(drifted, { onDrift }).event_type.length;
    },
    'JSON.parse': () => {
      for (let i = 0; i < PARSES; i++) sink += (JSON.parse(text) as { event_type: string }).event_type.length;
    },
  }, { warmup: 1, rounds: 5 });
  const parseRate = (PARSES / parse.parseWebhook) * 1000;
  const jsonRate = (PARSES / parse['JSON.parse']) * 1000;
  const driftedRate = (PARSES / 10 / parse['parseWebhook (drifted)']) * 1000;

  // Baseline: the straightforward reference (string splitting, BigInt) the property tests use.
  const ranges = WEBHOOK_SOURCE_RANGES;
  const count = ADDRESSES.length;
  const ips = await compare({
    isAllowedSourceIp: () => {
      for (let i = 0; i < IP_CHECKS; i++) if (isAllowedSourceIp(ADDRESSES[i % count] as string)) sink++;
    },
    reference: () => {
      for (let i = 0; i < REFERENCE_CHECKS; i++) if (isAllowedReference(ADDRESSES[i % count] as string, ranges)) sink++;
    },
  }, { warmup: 1, rounds: 5 });
  const ipRate = (IP_CHECKS / ips.isAllowedSourceIp) * 1000;
  const referenceRate = (REFERENCE_CHECKS / ips.reference) * 1000;
  if (sink === 0) throw new Error('unreachable: keeps the loops from being optimised away');

  return [
    {
      name: 'webhook parse (full new_order, string)',
      measured: fmt.rate(parseRate),
      baseline: `${fmt.rate(jsonRate)} JSON.parse`,
      ratio: parseRate / jsonRate,
      goal: '>= 0.75',
      pass: parseRate / jsonRate >= 0.75,
      data: { bytes: text.length, parsesPerSecond: parseRate, jsonParsePerSecond: jsonRate },
    },
    {
      name: 'webhook parse, drifted order (info)',
      measured: fmt.rate(driftedRate),
      baseline: `${fmt.rate(jsonRate)} JSON.parse`,
      ratio: driftedRate / jsonRate,
      goal: 'info',
      pass: undefined,
      data: { parsesPerSecond: driftedRate, jsonParsePerSecond: jsonRate, drift: '$.order.custom as a number' },
    },
    {
      name: 'isAllowedSourceIp (mixed addresses)',
      measured: fmt.rate(ipRate),
      baseline: `${fmt.rate(referenceRate)} naive ref.`,
      ratio: ipRate / referenceRate,
      goal: '>= 5 M/s',
      pass: ipRate >= 5_000_000,
      data: { checksPerSecond: ipRate, naiveReferencePerSecond: referenceRate, addresses: ADDRESSES },
    },
  ];
}
