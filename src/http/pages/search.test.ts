/** The search page's rendering, from constructed envelopes (the interpretation object is issue 12's). */
import { describe, expect, it } from 'vitest'
import type { SearchEnvelope } from '../../core/api/schemas.js'
import type { Fact } from '../../core/records/record.js'
import { Assets } from './assets.js'
import type { SearchInterpretation } from './interpretation.js'
import { renderSearchPage } from './search.js'

const site = { base: '', assets: new Assets('') }
const rule: Fact = {
  id: 'fait-643b555e754f953d',
  kind: 'fact',
  title: 'Stationnement sur le trottoir',
  text: 'Le stationnement sur un trottoir est interdit et gênant.',
  url: 'https://code-et-conduite.example/regles/trottoir',
  regions: ['France'],
  verified_at: '2026-09-15',
  sources: [
    { url: 'https://www.legifrance.gouv.fr/x', label: 'Code de la route, article R417-11', type: 'official' },
  ],
}
const lesson: Fact = {
  ...rule,
  id: 'page-0000000000000001',
  kind: 'lesson',
  title: 'Bien se garer',
  text: 'Garez-vous sans gêner : jamais sur le trottoir.',
  sources: [],
  verified_at: undefined,
}
const envelope = (
  results: Fact[],
  total: number,
  interpretation?: SearchInterpretation,
  offset = 0,
): SearchEnvelope =>
  ({
    results,
    total,
    limit: 10,
    offset,
    ...(interpretation === undefined ? {} : { interpretation }),
  }) as SearchEnvelope
const text = (page: string) => page.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ')

describe('results', () => {
  // As the engine reads it: one required word, as typed; the highlight folds it as the index does.
  const page = renderSearchPage(
    site,
    { q: 'trottoirs', page: 1 },
    envelope([rule, lesson], 2, {
      words: ['trottoirs'],
      ignored: [],
      corrected: [],
      expanded: [],
      relaxed: [],
    }),
  )
  it('labels an official rule apart from a lesson, with the rule’s sources and verification date', () => {
    expect(page).toContain('<span class="label label-official">Règle officielle</span>')
    expect(page).toContain(
      '<span class="label label-other">Leçon<span class="note">— explication, pas une règle officielle</span></span>',
    )
    expect(text(page)).toContain(
      'Sources officielles : Code de la route, article R417-11. Vérifiée sur le texte officiel le 15 septembre 2026.',
    )
  })
  it('marks the searched words (folded as the index folds them) in titles and excerpts', () => {
    expect(page).toContain('Stationnement sur le <mark>trottoir</mark>')
    expect(page).toContain('jamais sur le <mark>trottoir</mark>.')
  })
  it('ends each result with the attribution line, its address a link, and links the record’s page', () => {
    expect(page).toContain(
      '<p class="attribution">Source : Bien se garer — <a href="https://code-et-conduite.example/regles/trottoir">',
    )
    expect(page).toContain('<a href="/fiches/fait-643b555e754f953d">')
  })
  it('says how many records matched', () => {
    expect(text(page)).toContain('2 fiches pour « trottoirs »')
  })
})

describe('the interpretation of the query', () => {
  const understood: SearchInterpretation = {
    words: ['stationner', 'trottoir'],
    ignored: ['est', 'ce', 'que', 'on', 'peut'],
    corrected: [{ from: 'trotoir', to: 'trottoir' }],
    expanded: [{ word: 'auto', with: ['voiture', 'vehicule'] }],
    relaxed: [],
  }
  it('shows the words ignored, the corrections and other forms, and marks the corrected word', () => {
    const page = renderSearchPage(
      site,
      { q: 'est-ce que on peut stationner sur le trotoir', page: 1 },
      envelope([rule], 1, understood),
    )
    expect(text(page)).toContain(
      'Aucune fiche ne contient « trotoir » : la recherche a utilisé « trottoir » à la place.',
    )
    expect(text(page)).toContain(
      'Mots ignorés, trop courants : « est », « ce », « que », « on » et « peut ».',
    )
    expect(text(page)).toContain('« auto » a aussi été cherché sous les formes « voiture » et « vehicule ».')
    expect(page).toContain('Stationnement sur le <mark>trottoir</mark>')
  })
  it('says the corrections at once, in one sentence, and folds how each word was read under the words searched', () => {
    const page = renderSearchPage(
      site,
      { q: 'vitese maximal autorute', page: 1 },
      envelope([rule], 1, {
        ...understood,
        words: ['vitesse', 'maximal', 'autoroute'],
        corrected: [
          { from: 'vitese', to: 'vitesse' },
          { from: 'autorute', to: 'autoroute' },
        ],
      }),
    )
    const section = /<section class="interpretation"[\s\S]*?<\/section>/.exec(page)![0]
    expect(text(section)).toContain(
      'Aucune fiche ne contient ces mots tels qu’écrits ; cherchés à la place : « vitese » → « vitesse » et « autorute » → « autoroute ».',
    )
    const details = /<details>[\s\S]*?<\/details>/.exec(section)![0]
    expect(text(details)).toMatch(/^Mots cherchés : vitesse maximal autoroute/)
    expect(text(details)).toContain('Mots ignorés, trop courants')
    expect(text(details)).toContain('« auto » a aussi été cherché')
    expect(details).not.toContain('Aucune fiche ne contient')
  })
  it('on zero results, offers the relaxed queries as links that keep the filters', () => {
    const relaxed = {
      ...understood,
      corrected: [],
      expanded: [],
      relaxed: [
        { without: 'trottoir', q: 'stationner', total: 12 },
        { without: 'stationner', q: 'trottoir', total: 1 },
      ],
    }
    const page = renderSearchPage(
      site,
      { q: 'stationner trottoir', kind: 'fact', page: 1 },
      envelope([], 0, relaxed),
    )
    expect(text(page)).toContain('Aucune fiche ne contient à la fois « stationner » et « trottoir ».')
    expect(page).toContain(
      '<li><a href="/recherche?q=stationner&amp;kind=fact">stationner</a> — sans « trottoir », 12 fiches</li>',
    )
    expect(page).toContain(
      '<li><a href="/recherche?q=trottoir&amp;kind=fact">trottoir</a> — sans « stationner », 1 fiche</li>',
    )
  })
  it('says so when not even part of the query matches', () => {
    const page = renderSearchPage(
      site,
      { q: 'xyzzy plugh', page: 1 },
      envelope([], 0, { ...understood, words: ['xyzzy', 'plugh'], ignored: [], corrected: [], expanded: [] }),
    )
    expect(text(page)).toContain(
      'Aucune fiche ne contient non plus une partie de ces mots : vérifiez l’orthographe ou essayez d’autres mots.',
    )
  })
  // Every sentence the interpretation can produce, read for one word, two and many (issue 31).
  it('writes each sentence for one word, two and many, as French reads it', () => {
    const sentences = (interpretation: Partial<SearchInterpretation>, total: number) =>
      text(
        renderSearchPage(
          site,
          { q: 'q', page: 1 },
          envelope([], total, {
            words: [],
            ignored: [],
            corrected: [],
            expanded: [],
            relaxed: [],
            ...interpretation,
          }),
        ),
      )
    const zeroOne = sentences({ words: ['xylophone'] }, 0)
    expect(zeroOne).toContain(
      'Aucune fiche ne contient « xylophone » : vérifiez l’orthographe ou essayez un autre mot.',
    )
    expect(zeroOne).not.toContain('à la fois')
    expect(zeroOne).not.toContain('une partie de ces mots')
    expect(sentences({ words: ['a', 'b'] }, 0)).toContain(
      'Aucune fiche ne contient à la fois « a » et « b ».',
    )
    expect(sentences({ words: ['a', 'b', 'c'] }, 0)).toContain(
      'Aucune fiche ne contient à la fois « a », « b » et « c ».',
    )
    expect(sentences({ words: ['a'], ignored: ['de'] }, 1)).toContain('Mot ignoré, trop courant : « de ».')
    expect(sentences({ words: ['a'], ignored: ['de', 'la'] }, 1)).toContain(
      'Mots ignorés, trop courants : « de » et « la ».',
    )
    expect(sentences({ words: ['auto'], expanded: [{ word: 'auto', with: ['voiture'] }] }, 1)).toContain(
      '« auto » a aussi été cherché sous la forme « voiture ».',
    )
    const best = (matched: string[], leftOut: string[], total: number) =>
      sentences({ words: [...matched, ...leftOut], matched, left_out: leftOut }, total)
    expect(best(['a'], ['b'], 1)).toContain(
      'Aucune fiche ne contient tous ces mots : la première fiche contient « a », mais pas « b » ; les suivantes en contiennent moins.',
    )
    expect(best(['a', 'b'], ['c', 'd'], 12)).toContain(
      'Aucune fiche ne contient tous ces mots : les 12 premières fiches contiennent « a » et « b », mais ni « c » ni « d » ; les suivantes en contiennent moins.',
    )
  })
  it('under best match, says which words the first records hold, which were left out, and what each result lacks', () => {
    const best = {
      ...understood,
      words: ['stationner', 'trottoir', 'camion'],
      corrected: [],
      expanded: [],
      matched: ['stationner', 'trottoir'],
      left_out: ['camion'],
      missing: [{ id: lesson.id, words: ['camion', 'stationner'] }],
    }
    const page = renderSearchPage(
      site,
      { q: 'stationner trottoir camion', page: 1 },
      envelope([rule, lesson], 1, {
        ...best,
        missing: [{ id: rule.id, words: ['camion'] }, ...best.missing],
      }),
    )
    expect(text(page)).toContain(
      'Aucune fiche ne contient tous ces mots : la première fiche contient « stationner » et « trottoir », mais pas « camion » ; les suivantes en contiennent moins.',
    )
    expect(text(page)).toContain('Ne contient pas : « camion » ni « stationner »')
    expect(page.match(/class="lacking/g)).toHaveLength(2)
  })
  it('shows nothing of it when there is nothing to say', () => {
    const page = renderSearchPage(
      site,
      { q: 'trottoir', page: 1 },
      envelope([rule], 1, { words: ['trottoir'], ignored: [], corrected: [], expanded: [], relaxed: [] }),
    )
    expect(page).not.toContain('class="interpretation"')
  })
})

describe('paging', () => {
  const results = Array.from({ length: 10 }, (_, i) => ({
    ...rule,
    id: `fait-00000000000000${String(i).padStart(2, '0')}`,
  }))
  it('links the previous and next pages and a window of page numbers, keeping the query and filters', () => {
    const page = renderSearchPage(
      site,
      { q: 'trottoir', region: 'france', page: 5 },
      envelope(results, 95, undefined, 40),
    )
    const pager = /<nav class="pager"[\s\S]*?<\/nav>/.exec(page)![0]
    expect([...pager.matchAll(/<(?:a|span)[^>]*>([^<]*)</g)].map((m) => m[1])).toEqual([
      '← Précédente',
      '1',
      '…',
      '3',
      '4',
      '5',
      '6',
      '7',
      '…',
      '10',
      'Suivante →',
    ])
    expect(pager).toContain('<a href="/recherche?q=trottoir&amp;region=france&amp;page=6" rel="next">')
    expect(pager).toContain('<span aria-current="page">5</span>')
    expect(page).toContain('<ol class="results" start="41">')
    expect(text(page)).toContain('95 fiches pour « trottoir » (France) — page 5 sur 10')
  })
  it('under best match past its total, counts what the total counts and links the next page when one exists', () => {
    const best: SearchInterpretation = {
      words: ['trottoir', 'camion'],
      ignored: [],
      corrected: [],
      expanded: [],
      relaxed: [],
      matched: ['trottoir', 'camion'],
      left_out: [],
    }
    const first = renderSearchPage(site, { q: 'trottoir camion', page: 1 }, envelope(results, 7, best), true)
    expect(text(first)).toContain(
      '7 fiches contiennent tous les mots cherchés, puis des fiches qui en contiennent moins — page 1',
    )
    expect(first).not.toContain('7 fiches pour « trottoir camion »</h2>')
    const partial = renderSearchPage(
      site,
      { q: 'trottoir camion', page: 1 },
      envelope(results, 7, { ...best, matched: ['trottoir'], left_out: ['camion'] }),
      true,
    )
    expect(text(partial)).toContain('7 fiches contiennent 1 des 2 mots cherchés, puis des fiches')
    expect(first).toContain('<a href="/recherche?q=trottoir+camion&amp;page=2" rel="next">')
    // The last page of the list: a previous page, no next one, and still no count that the list contradicts.
    const last = renderSearchPage(
      site,
      { q: 'trottoir camion', page: 2 },
      envelope(results.slice(0, 4), 7, best, 10),
      false,
    )
    expect(text(last)).toContain('puis des fiches qui en contiennent moins — page 2')
    expect(last).toContain('rel="prev"')
    expect(last).not.toContain('rel="next"')
  })
  it('says when a page is beyond the results', () => {
    const page = renderSearchPage(site, { q: 'trottoir', page: 9 }, envelope([], 3, undefined, 80))
    expect(text(page)).toContain('Cette page est au-delà des résultats. Revenir à la première page.')
  })
})

it('escapes the query wherever it is shown', () => {
  const page = renderSearchPage(site, { q: '<script>alert(1)</script>', page: 1 }, envelope([], 0))
  expect(page).not.toContain('<script>alert')
  expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;')
})
