// Helpers for adapters' `follow` steps: what a browser does with a page before the next request
// (post the form back with every hidden field, carry the session cookie, resolve a link). Pure.
import { parse as parseHtml } from 'node-html-parser';
import type { FeedRequest, FollowedPage, RequestContext } from './types.js';

/** Every named hidden input of the page (or of its element `scope`, a CSS selector), in order, as a
 *  browser posts them: ViewState, EventValidation, request digest, CSRF tokens. */
export function hiddenFields(html: string, scope?: string): [string, string][] {
  const root = parseHtml(html);
  const within = scope ? root.querySelector(scope) : root;
  return (within?.querySelectorAll('input') ?? [])
    .filter((i) => i.getAttribute('type')?.toLowerCase() === 'hidden' && i.getAttribute('name'))
    .map((i) => [i.getAttribute('name')!, i.getAttribute('value') ?? '']);
}

/**
 * The page's form posted back: its hidden fields with `fields` set over them (a field named in both
 * keeps the page's place and takes the given value), with the page's cookie and referer.
 */
export function postBack(page: FollowedPage, url: string, fields: [string, string][], hidden: [string, string][]): FeedRequest {
  const given = new Map(fields);
  const form = new URLSearchParams();
  for (const [name, value] of hidden) form.append(name, given.has(name) ? given.get(name)! : value);
  for (const [name, value] of fields) if (!hidden.some(([h]) => h === name)) form.append(name, value);
  return {
    url,
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', referer: page.url, ...(page.cookie ? { cookie: page.cookie } : {}) },
    body: form.toString(),
  };
}

/**
 * A link read from a page, as an absolute URL on the feed's base. It is resolved as the bank's own
 * page would resolve it (a server-relative "/Lists/…" is on the bank's host), and whatever lands on
 * the bank's address (`baseUrl`, with or without www.) is moved onto `ctx.base`, so that an
 * operator's or a test's URL override also holds for the pages and files the bank links.
 */
export function linkOn(link: string, page: FollowedPage, baseUrl: string, ctx: RequestContext): string {
  const base = ctx.base.replace(/\/+$/, '');
  const real = baseUrl.replace(/\/+$/, '');
  const pageUrl = page.url.startsWith(base) ? `${real}${page.url.slice(base.length)}` : page.url;
  const url = new URL(link.trim(), pageUrl);
  const bank = new URL(real);
  // Banks link their own host with and without www.: both count as theirs.
  const bare = (host: string) => host.replace(/^www\./, '');
  const prefix = bank.pathname.replace(/\/+$/, '');
  if (bare(url.hostname) !== bare(bank.hostname) || !url.pathname.startsWith(prefix)) return url.href;
  return `${base}${url.pathname.slice(prefix.length)}${url.search}`;
}
