import { webHref } from '@web/lib/rich-text.js';

/** The profile's website as a link labelled with its host name; null for anything not http(s). */
export function websiteLink(value: string | null): { href: string; label: string } | null {
  if (!value) return null;
  const href = webHref(value);
  if (!href) return null;
  return { href, label: new URL(href).host };
}
