import dns from 'node:dns'
import { isIP, type LookupFunction } from 'node:net'
import { isInRanges } from '../../ip-ranges.js'

/**
 * Addresses a production callback may never reach: private, loopback, link-local, metadata,
 * reserved, and IPv6 tunnel/translation prefixes that can carry an IPv4 address inside.
 */
const NON_PUBLIC = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
  '::/96',
  '::1/128',
  '::ffff:0:0:0/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/32',
  '2001:db8::/32',
  '2002::/16',
  'fc00::/7',
  'fe80::/10',
  'fec0::/10',
  'ff00::/8',
]

// URL hostnames keep IPv6 literals in brackets.
const bare = (host: string) => host.replace(/^\[|\]$/g, '')

/** The IPv4 address inside an IPv4-mapped (`::ffff:…`) or NAT64 (`64:ff9b::…`) IPv6 address. */
export function embeddedIPv4(ip: string): string | undefined {
  const groups = expandIPv6(ip)
  if (!groups) return undefined
  const mapped = groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((g) => g === 0)
  if (!mapped && !nat64) return undefined
  return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.')
}

function expandIPv6(ip: string): number[] | undefined {
  if (isIP(ip) !== 6) return undefined
  let text = ip.toLowerCase()
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/)
  if (dotted) {
    const [a, b, c, d] = dotted[1].split('.').map(Number)
    text = text.slice(0, -dotted[1].length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::')
  const part = (s: string | undefined) => (s ? s.split(':').map((g) => parseInt(g, 16)) : [])
  const front = part(head)
  const back = part(tail)
  return tail === undefined ? front : [...front, ...Array(8 - front.length - back.length).fill(0), ...back]
}

/** Whether a literal address is one a production callback must not reach. */
export function isNonPublicAddress(ip: string): boolean {
  const address = bare(ip).replace(/%.*$/, '')
  if (!isIP(address)) return true
  return isInRanges(embeddedIPv4(address) ?? address, NON_PUBLIC)
}

export type ResolvedAddress = { address: string; family: number }
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true })

/**
 * A socket `lookup` that resolves with `resolve` and, when `guard` is on, refuses the connection
 * if any address is not public: checked at connect time, so DNS rebinding after the URL check
 * does not help.
 */
export function guardedLookup(resolve: Resolver, guard: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (found) => {
        const addresses = options.family ? found.filter((a) => a.family === options.family) : found
        const refused = guard ? addresses.find((a) => isNonPublicAddress(a.address)) : undefined
        if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0)
        if (refused)
          return callback(Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'EADDRNOTPUBLIC' }), '', 0)
        if (options.all) return (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, addresses)
        callback(null, addresses[0].address, addresses[0].family)
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    )
  }
}

const isLoopbackName = (host: string) => host === 'localhost' || host.endsWith('.localhost')
const isLoopbackAddress = (host: string) =>
  isIP(bare(host)) !== 0 && isInRanges(embeddedIPv4(bare(host)) ?? bare(host), ['127.0.0.0/8', '::1/128'])
/** A URL host that is an IP literal, without brackets. */
export const literalAddress = (host: string): string | undefined => (isIP(bare(host)) ? bare(host) : undefined)

// Whitespace (Unicode's too), C0/DEL/C1 controls and invisible format characters (zero-width,
// bidi, BOM): the URL parser drops or rewrites them, so the delivery would go elsewhere than shown.
const UNSAFE_CHARACTER = /[\s\p{Z}\p{Cc}\p{Cf}]/u
export const hasUnsafeCharacters = (url: string) => UNSAFE_CHARACTER.test(url)

// Everything between "scheme:" (and its slashes) and the path: where a user:pass@ would be.
const authorityOf = (raw: string) => raw.replace(/^[a-z][a-z0-9+.-]*:[/]*/i, '').split(/[/?#]/, 1)[0]

/**
 * docs/design.md §8 URL rule: https always; http only for localhost/loopback outside production. In
 * production a literal non-public address or a localhost name is refused as well. Nothing the
 * parser would rewrite (whitespace, controls, backslashes) and no credentials. Returns the
 * reason it is refused, as a sentence saying what to do, or undefined.
 */
export function callbackUrlProblem(raw: string, production: boolean): string | undefined {
  if (hasUnsafeCharacters(raw)) return 'must not contain spaces or control characters; percent-encode them (a space is %20)'
  if (raw.includes('\\')) return 'must not contain backslashes; use / in the path, or percent-encode one as %5C'
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return 'must be an absolute URL'
  }
  const host = url.hostname.toLowerCase()
  if (url.protocol === 'http:') {
    if (production) return 'must use https'
    if (!isLoopbackName(host) && !isLoopbackAddress(host)) return 'must use https (http only for localhost)'
  } else if (url.protocol !== 'https:') {
    return 'must use https'
  }
  // Even an empty "@" or ":@", which the parser drops: what is stored must be what is sent.
  if (url.username || url.password || authorityOf(raw).includes('@'))
    return 'must not contain a user name or password (user:pass@): they would be stored and sent in clear; verify our calls by their signature headers instead'
  const literal = literalAddress(host)
  if (production && (isLoopbackName(host) || (literal && isNonPublicAddress(literal)))) return 'must reach a public address'
  return undefined
}
