// Where a source's requests may go (docs/reliability.md#host-rules): its own hosts, as the adapter
// names them, or the operator's override. A page or a redirect cannot steer a fetch elsewhere, and
// no fetch reaches loopback, link-local or private addresses unless the operator's override names them.
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { RequestContext, Source } from './types.js';

/** Resolves a host name to every address it has; injectable so that tests never ask a real DNS. */
export type Resolve = (hostname: string) => Promise<string[]>;

const dnsResolve: Resolve = async (hostname) => (await lookup(hostname, { all: true })).map((a) => a.address);

/** Addresses a public feed never has: the machine itself, its local networks, cloud metadata services. */
const INTERNAL_V4 = new BlockList();
for (const [net, prefix] of [['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 3]] as const) {
  INTERNAL_V4.addSubnet(net, prefix, 'ipv4');
}
const INTERNAL_V6 = new BlockList();
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8]] as const) {
  INTERNAL_V6.addSubnet(net, prefix, 'ipv6');
}
// IPv4-mapped addresses (::ffff:a.b.c.d) would smuggle any IPv4 address past the IPv4 list; no bank needs one.
const MAPPED = /^::ffff:/i;

export function isInternalAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return INTERNAL_V4.check(address, 'ipv4');
  return family === 6 && (MAPPED.test(address) || INTERNAL_V6.check(address, 'ipv6'));
}

// Banks link their own host with and without www.: both count as theirs.
const bare = (hostname: string) => hostname.toLowerCase().replace(/^www\./, '');
const hostOf = (url: string) => bare(new URL(url).hostname.replace(/^\[|\]$/g, ''));

/** A host check for one fetch of `source`: undefined when `url` may be fetched, else why not. */
export type HostCheck = (url: URL) => Promise<string | undefined>;

export function hostRules(source: Source, ctx: RequestContext, resolve: Resolve = dnsResolve): HostCheck {
  const own = new Set([source.baseUrl, source.feedUrl].map(hostOf).concat((source.extraHosts ?? []).map(bare)));
  // The base differs from the adapter's only when the operator (or a test) overrides it.
  const named = ctx.base.replace(/\/+$/, '') !== source.baseUrl.replace(/\/+$/, '') ? hostOf(ctx.base) : undefined;
  return async (url) => {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${url.protocol} URLs are not fetched`;
    const host = hostOf(url.href);
    if (host === named) return undefined;
    if (!own.has(host)) return `${url.hostname} is not a host of ${source.code} (${[...own].join(', ')}${named ? `, or ${named}` : ''})`;
    let addresses: string[];
    try {
      addresses = isIP(host) ? [host] : await resolve(host);
    } catch {
      return undefined; // The fetch itself reports the DNS failure, and retries it.
    }
    const internal = addresses.find(isInternalAddress);
    return internal ? `${url.hostname} is at ${internal}, a loopback, link-local or private address; only an override (KURS_SOURCE_${source.code}_URL) may name one` : undefined;
  };
}

/** Whether a cookie set by `from` may be sent to `to`: only back to the very host that set it. */
export const sameHost = (from: string, to: string): boolean => new URL(from).hostname.toLowerCase() === new URL(to).hostname.toLowerCase();
