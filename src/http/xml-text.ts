/**
 * Text written into XML (the sitemaps, the Atom feed): one escaper, so that every XML output escapes
 * the same characters. Publish refuses what XML 1.0 forbids (docs/contract.md), so escaping is all
 * that is left to do.
 */
const XML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A reader turns a raw CR (and CR LF) into LF: written as a reference, a title keeps its CR.
  '\r': '&#13;',
}

/** `text` as XML character data or an attribute value. */
export const escapeXml = (text: string): string => text.replace(/[&<>"'\r]/g, (c) => XML_ESCAPES[c]!)
