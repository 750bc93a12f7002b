/**
 * `/changes.atom`: the latest changes of the records as an Atom feed (RFC 4287), for people and feed
 * readers: one entry per record and publication, titled in French, linking to the record page. Its
 * ids and links must be absolute, so, like the sitemap, it is served only on a configured public
 * base URL (the service never builds an address from `Host`).
 */
import { DISCOVERY_PATHS } from '../../core/api/catalogue.js'
import type { ChangeHistory, ChangeKind } from '../../core/changes/change-log.js'
import type { RecordIndex } from '../../core/search/record-index.js'
import { recordPath } from '../pages/record-view.js'
import { escapeXml } from '../xml-text.js'

export const CHANGES_ATOM_PATH = DISCOVERY_PATHS.changesAtom
export const ATOM_TYPE = 'application/atom+xml; charset=utf-8'
/** Entries in the feed: the newest changes, across publications. */
const ATOM_ENTRIES = 50

const VERBS: Readonly<Record<ChangeKind, string>> = {
  added: 'Fiche ajoutée',
  changed: 'Fiche mise à jour',
  removed: 'Fiche retirée',
}

/** The feed's XML for `history`, whose newest publication `index` is; `base` is the public base URL. */
export function changesAtom(history: ChangeHistory, index: RecordIndex, base: string, name: string): string {
  const newest: string[] = []
  const { publications } = history
  // Newest publication first, and within one the id order of the feed; the base's changes are unknown.
  for (let p = publications.length - 1; p >= 1 && newest.length < ATOM_ENTRIES; p--) {
    const publication = publications[p]!
    for (const change of publication.changes.slice(0, ATOM_ENTRIES - newest.length)) {
      const page = `${base}${recordPath(change.id)}`
      const title = index.get(change.id)?.record.title
      const label = `${VERBS[change.change]} : ${title ?? change.id}`
      const summary =
        change.change === 'removed'
          ? `La fiche ${change.id} n’est plus publiée depuis la publication ${publication.publication}.`
          : `La fiche ${change.id} a été ${change.change === 'added' ? 'ajoutée' : 'mise à jour'} par la publication ${publication.publication}.`
      newest.push(
        [
          '<entry>',
          `<id>${escapeXml(`${page}#publication-${publication.publication}`)}</id>`,
          `<title>${escapeXml(label)}</title>`,
          `<updated>${publication.publishedAt}</updated>`,
          `<link rel="alternate" type="text/html" href="${escapeXml(page)}"/>`,
          `<summary>${escapeXml(summary)}</summary>`,
          '</entry>',
        ].join(''),
      )
    }
  }
  const latest = publications[publications.length - 1]!
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="fr">',
    `<id>${escapeXml(`${base}${CHANGES_ATOM_PATH}`)}</id>`,
    `<title>${escapeXml(`${name} : dernières modifications des fiches`)}</title>`,
    `<subtitle>Fiches ajoutées, mises à jour et retirées, publication par publication.</subtitle>`,
    `<updated>${latest.publishedAt}</updated>`,
    `<author><name>${escapeXml(name)}</name></author>`,
    `<link rel="self" type="application/atom+xml" href="${escapeXml(`${base}${CHANGES_ATOM_PATH}`)}"/>`,
    `<link rel="alternate" type="text/html" href="${escapeXml(`${base}/`)}"/>`,
    ...newest,
    '</feed>',
    '',
  ].join('\n')
}
