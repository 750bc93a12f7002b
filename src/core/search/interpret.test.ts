/**
 * How queries are read, on the bundled sample (the vocabulary a real corpus has): question words,
 * forms, aliases, corrections, relaxed queries, and that AND still holds.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Fact } from '../records/record.js'
import { loadWordForms } from './forms.js'
import { RecordIndex, toIndexQuery } from './record-index.js'
import { tokenize } from './tokenize.js'

const file = JSON.parse(readFileSync(new URL('../../../data/records.json', import.meta.url), 'utf8')) as
  Fact[] | { records: Fact[] }
const records = Array.isArray(file) ? file : file.records
const index = RecordIndex.build({ records })
const search = (q: string, limit = 50) => index.search(toIndexQuery({ q, limit, offset: 0 }))
const ids = (q: string) => search(q).results.map((e) => e.record.id)
const forms = loadWordForms()
const textOf = (r: Fact) =>
  new Set(
    tokenize(
      [
        r.title,
        r.text,
        r.description ?? '',
        ...r.sources.map((s) => s.label),
        ...(r.bibliography ?? []),
      ].join('\n'),
    ),
  )

describe('question and function words', () => {
  it('are ignored, and the answer lists them', () => {
    const page = search('est-ce que je peux stationner sur le trottoir ?')
    expect(page.interpretation).toMatchObject({
      words: ['stationner', 'trottoir'],
      ignored: ['est', 'ce', 'que', 'je', 'peux', 'sur', 'le'],
      corrected: [],
    })
    expect(page.results[0]!.record.id).toBe('fait-8caa28720a6c4e0c')
  })
  it('ignore "combien de temps" as a whole, though "temps" alone is a subject', () => {
    expect(search('combien de temps pour changer l’adresse de la carte grise').interpretation?.words).toEqual(
      ['changer', 'adresse', 'carte grise'],
    )
    expect(search('temps de réaction').interpretation?.words).toEqual(['temps', 'réaction'])
  })
  it('read "combien coûte" as asking for an amount: a price or a fine, which the answer names', () => {
    const page = search('combien coûte une amende pour stationnement sur le trottoir ?')
    expect(page.interpretation).toMatchObject({
      words: ['coûte', 'amende', 'stationnement', 'trottoir'],
      ignored: expect.arrayContaining(['combien']),
      expanded: expect.arrayContaining([{ word: 'coûte', with: ['prix', 'tarif', 'coût', 'amende'] }]),
    })
    expect(page.results[0]!.record.id).toBe('fait-8caa28720a6c4e0c')
    const offer = search('combien coûte une heure de conduite ?').results[0]!.record
    expect(offer.kind).toBe('offer')
    expect(offer.offer_data?.price).toBeDefined()
    expect(search('ça coûte combien, une amende ?').interpretation?.words).toEqual(['coûte', 'amende'])
    // A record that holds the verb still matches it: « l'assurance coûte plus cher » finds its article.
    expect(search("pourquoi l'assurance coûte plus cher ?").results[0]!.record.id).toBe(
      'page-09207d65fa929d89',
    )
  })
  it('all count when the query has nothing else (the contract), as whole words: "peux" is not "peu"', () => {
    const page = search('peux')
    expect(page.interpretation).toMatchObject({ words: ['peux'], ignored: [], expanded: [] })
    for (const e of page.results) expect(textOf(e.record)).toContain('peux')
    expect(page.total).toBeLessThan(search('peu').total)
  })
})

describe('word forms and aliases', () => {
  it('find other forms of a word, and say which', () => {
    const page = search('stationner trottoir')
    expect(page.interpretation?.expanded).toEqual([
      { word: 'stationner', with: expect.arrayContaining(['stationnement']) },
    ])
    expect(page.total).toBeGreaterThan(0)
  })
  it('find aliases: an alias group counts as one required word', () => {
    const page = search('casque moto')
    expect(page.interpretation?.words).toEqual(['casque', 'moto'])
    expect(page.interpretation?.expanded).toContainEqual({ word: 'moto', with: ['motocyclette'] })
    expect(page.results.map((e) => e.record.id)).toContain('fait-ca0ec87731dd083c') // says "motocyclette", never "moto"
  })
  it('join verb forms the stemmer cannot see (data/search/forms.json): "garée" finds "garer", "asseoir" finds "assoit"', () => {
    expect(forms.key('garee')).toBe(forms.key('garer'))
    expect(forms.key('garee')).not.toBe(forms.key('gare'))
    expect(search('voiture garée même endroit').results.map((e) => e.record.id)).toContain(
      'fait-8a8537392929e5ed',
    ) // says "garer sa voiture"
    expect(search('asseoir place avant').results.map((e) => e.record.id)).toContain('fait-dd90f65734c1601c') // says "il s'assoit"
  })
  it('read a verb in the third person plural as its other forms, but no adjective in -ent: "traversent" finds "traverser"', () => {
    expect(forms.key('traversent')).toBe(forms.key('traverser'))
    expect(forms.key('depassent')).toBe(forms.key('depasser'))
    // Six letters at least remain, and the adjectives of forms.json keep their feminine.
    expect(forms.key('accident')).toBe(forms.key('accidente'))
    expect(forms.key('different')).toBe(forms.key('differente'))
    expect(forms.key('permanent')).toBe(forms.key('permanente'))
  })
  it('find the records\' words for everyday ones: "papiers" finds "documents", "s\'asseoir" finds "place" and "siège"', () => {
    expect(search('papiers contrôle police').results[0]?.record.id).toBe('fait-4af862134e9aa509') // says "ces documents"
    expect(search("enfant de 8 ans peut s'asseoir où").interpretation?.expanded).toContainEqual({
      word: 'asseoir',
      with: expect.arrayContaining(['place', 'siège']),
    })
    expect(search("enfant s'asseoir à l'avant").results.map((e) => e.record.id)).toContain(
      'fait-e739a981012692c3',
    ) // "la place avant"
  })
  it('join job names across genders and adverbs to their adjectives, though the records hold one form only', () => {
    expect(search('conductrice').interpretation?.expanded).toEqual([
      { word: 'conductrice', with: ['conducteur'] },
    ])
    expect(search('examinatrice').interpretation?.expanded).toEqual([
      { word: 'examinatrice', with: ['examinateur'] },
    ])
    expect(search('prudemment').interpretation?.expanded[0]?.with).toContain('prudent')
    expect(search('couramment').interpretation?.expanded[0]?.with).toContain('courant')
    // A word found nowhere still does not match a word that is merely its stem: it is corrected.
    expect(search('stationement').interpretation?.corrected).toEqual([
      { from: 'stationement', to: 'stationnement' },
    ])
  })
  it('read a phrase with aliases as one word ("rond-point" finds "giratoire")', () => {
    expect(search('rond-point').interpretation).toMatchObject({
      words: ['rond point'],
      expanded: [{ word: 'rond point', with: ['giratoire'] }],
    })
  })
  it('keep AND: every result holds each required word, one of its forms or one of its aliases', () => {
    for (const q of [
      'casque moto',
      'stationner trottoir',
      'vitesse max autoroute',
      'doubler un vélo',
      'alcootest refus',
      'carrefour priorité droite',
      'papiers contrôle',
      'voiture garée trottoir',
      'enfant assis avant',
    ]) {
      const page = search(q)
      expect(page.total, q).toBeGreaterThan(0)
      const { words, expanded } = page.interpretation!
      for (const e of page.results) {
        const keys = new Set([...textOf(e.record)].map((w) => forms.key(w)))
        for (const word of words) {
          const alternatives = [word, ...(expanded.find((x) => x.word === word)?.with ?? [])]
          expect(
            alternatives.some((a) => tokenize(a).some((w) => keys.has(forms.key(w)))),
            `${q}: ${e.record.id} lacks ${word}`,
          ).toBe(true)
        }
      }
    }
  })
})

describe('corrections', () => {
  it('replace a word found nowhere by the closest indexed word, and say so', () => {
    const page = search('trotoir')
    expect(page.interpretation).toMatchObject({
      words: ['trottoir'],
      corrected: [{ from: 'trotoir', to: 'trottoir' }],
    })
    expect(ids('trotoir')).toEqual(ids('trottoir'))
  })
  it('only touch words that find nothing, not even through a form', () => {
    expect(search('trottoir').interpretation?.corrected).toEqual([])
    expect(search('stationner').interpretation?.corrected).toEqual([])
    // "stationement" stems to "station", a word of its own: that is no match, so it is corrected
    expect(search('stationement').interpretation?.corrected).toEqual([
      { from: 'stationement', to: 'stationnement' },
    ])
  })
  it('split two words run together', () => {
    expect(search('ceinturesecurite').interpretation?.corrected).toEqual([
      { from: 'ceinturesecurite', to: 'ceinture sécurité' },
    ])
    // an alias is a match: "autoecole" is a spelling of "auto-école", not a word to correct
    expect(search('autoecole').interpretation).toMatchObject({
      corrected: [],
      expanded: [{ word: 'autoecole' }],
    })
  })
  it('leave the words of a phrase with aliases to their phrase ("tôle froissée" is not "rôle froissée")', () => {
    expect(search('tôle froissée').interpretation).toMatchObject({ words: ['tôle froissée'], corrected: [] })
    expect(search('cruise control').interpretation).toMatchObject({
      words: ['cruise control'],
      corrected: [],
    })
  })
  it('never land on a stop or question word', () => {
    expect(search('quell').interpretation?.corrected.map((c) => c.to)).not.toContain('quelle')
    expect(search('pourr vitesse').interpretation?.corrected).toEqual([])
  })
  it('leave short words and codes alone', () => {
    expect(search('zzz vitesse').interpretation?.corrected).toEqual([])
    expect(search('zzz vitesse').total).toBe(0)
  })
})

describe('relaxed queries', () => {
  it('say, when nothing matches, which queries minus one word would, with their totals, most specific first', () => {
    const page = search('casque trottoir handicapé')
    expect(page.total).toBe(0)
    const relaxed = page.interpretation!.relaxed
    expect(relaxed.length).toBeGreaterThan(0)
    expect(relaxed.map((r) => r.total)).toEqual(relaxed.map((r) => r.total).sort((a, b) => a - b))
    for (const r of relaxed) {
      expect(search(r.q).total).toBe(r.total)
      expect(page.interpretation!.words).toContain(r.without)
    }
  })
  it('are empty when a search matches, or when no query minus one word would', () => {
    expect(search('trottoir').interpretation?.relaxed).toEqual([])
    expect(search('zzzz').interpretation?.relaxed).toEqual([])
    expect(search('zzzz yyyy').interpretation?.relaxed).toEqual([])
  })
  it('are not tried past eight required words (each is one more search)', () => {
    const eight = 'vitesse autoroute pluie brouillard neige nuit feux visibilité'
    expect(search(eight).total).toBe(0)
    expect(search(eight).interpretation?.relaxed.length).toBeGreaterThan(0)
    expect(search(`${eight} ceinture`).interpretation?.relaxed).toEqual([])
  })
  it('keep the filters of the search', () => {
    const page = index.search(
      toIndexQuery({ q: 'vitesse trottoir casque', kind: 'lesson', limit: 10, offset: 0 }),
    )
    for (const r of page.interpretation!.relaxed) {
      expect(index.search(toIndexQuery({ q: r.q, kind: 'lesson', limit: 10, offset: 0 })).total).toBe(r.total)
    }
  })
})

describe('ranking', () => {
  it('puts the official rule before the tool on a blood-alcohol query', () => {
    for (const q of ['alcoolémie', "taux d'alcoolémie", 'alcolémie']) {
      const found = ids(q)
      expect(found.indexOf('fait-b3164bb30e5f01f9'), q).toBeLessThan(found.indexOf('page-6dce2da845224cc4'))
      expect(index.get(found[0]!)!.record.kind, q).toBe('fact')
    }
  })
  it('keeps title matches first', () => {
    const [first] = search('aquaplaning').results
    expect(first!.record.title).toMatch(/^Aquaplaning/)
  })
})

describe('a q without words', () => {
  it('lists every record, with an empty interpretation', () => {
    const page = search(' ?! ')
    expect(page.total).toBe(records.length)
    expect(page.interpretation).toEqual({ words: [], ignored: [], corrected: [], expanded: [], relaxed: [] })
  })
  it('has no interpretation without q', () => {
    expect(index.search(toIndexQuery({ limit: 1, offset: 0 })).interpretation).toBeUndefined()
  })
})

describe('a corrector that only helps (on records written for each rule)', () => {
  const fact = (i: number, title: string, text: string): Fact => ({
    id: `fait-${i.toString(16).padStart(16, '0')}`,
    kind: 'fact',
    title,
    text,
    url: `https://example.test/${i}`,
    regions: ['France'],
    sources: [],
  })
  const indexOf = (texts: readonly [string, string][]) =>
    RecordIndex.build({ records: texts.map(([title, text], i) => fact(i + 1, title, text)) })
  const read = (index: RecordIndex, q: string, match: 'all' | 'best' = 'all') =>
    index.search({ ...toIndexQuery({ q, limit: 10, offset: 0 }), match }).interpretation!

  it('never corrects into an acronym: a word the records write in capitals is a name, not a spelling', () => {
    const capitals = indexOf([['Carte grise', "La demande se fait en ligne sur le site de l'ANTS."]])
    expect(read(capitals, 'ante carte').corrected).toEqual([])
    // The same word written in lower case is a word: then it is a correction.
    const lower = indexOf([['Les fourmis', 'Les ants rouges et la carte des nids.']])
    expect(read(lower, 'ante carte').corrected).toEqual([{ from: 'ante', to: 'ants' }])
  })

  it('never splits off a piece shorter than four letters', () => {
    const index = indexOf([
      ['Transport scolaire', 'Le bus scolaire et le taxi scolaire suivent les mêmes règles.'],
    ])
    expect(read(index, 'busscolaire').corrected).toEqual([])
    expect(read(index, 'taxiscolaire').corrected).toEqual([{ from: 'taxiscolaire', to: 'taxi scolaire' }])
  })

  it("prefers the correction found together with the query's other words, and makes none found with none of them", () => {
    const index = indexOf([
      ['Démarrer en côte', 'Démarrer dans une pente en montagne sans reculer.'],
      ['Alcool', 'Une pinte de bière dépasse déjà la limite.'],
      ['Alcool et conduite', 'Une pinte, puis une autre pinte : le taux monte.'],
      ['Tenir le volant', 'Les deux mains sur le volant.'],
    ])
    expect(read(index, 'pante montagne').corrected).toEqual([{ from: 'pante', to: 'pente' }])
    expect(read(index, 'pante bière').corrected).toEqual([{ from: 'pante', to: 'pinte' }])
    // Alone, the more frequent word wins; beside a word that neither candidate is found with, neither is taken.
    expect(read(index, 'pante').corrected).toEqual([{ from: 'pante', to: 'pinte' }])
    expect(read(index, 'pante limite reculer').corrected).toHaveLength(1)
    expect(read(index, 'pante volant').corrected).toEqual([])
  })

  it('does not correct a name typed as one (a capital within the sentence, or capitals among lower-case words)', () => {
    const index = indexOf([['Le lion', 'Le permis et le lion du zoo.']])
    expect(read(index, 'permis à Lyon').corrected).toEqual([])
    expect(read(index, 'permis à lyon').corrected).toEqual([{ from: 'lyon', to: 'lion' }])
  })

  it('reports every correction it makes, in both ways of matching', () => {
    const index = indexOf([['Stationnement sur le trottoir', 'Le stationnement sur le trottoir est gênant.']])
    for (const match of ['all', 'best'] as const) {
      const read2 = read(index, 'stationement trotoir', match)
      expect(read2.corrected).toEqual([
        { from: 'stationement', to: 'stationnement' },
        { from: 'trotoir', to: 'trottoir' },
      ])
      expect(read2.words).toEqual(['stationnement', 'trottoir'])
    }
  })
})

describe('an English query', () => {
  it('drops its English function words and corrects no English word into French', () => {
    const page = search('can I lose my points')
    expect(page.interpretation!.corrected).toEqual([])
    expect(page.interpretation!.ignored).toEqual(expect.arrayContaining(['can', 'I', 'my']))
    expect(page.interpretation!.words).toEqual(['lose', 'points'])
    // A whole phrase keeps the function words its meaning rests on: none left, not a loss.
    const none = search('can I lose all my points')
    expect(none.interpretation!.words).toEqual(['lose all my points'])
    expect(none.interpretation!.ignored).toEqual(['can', 'I'])
  })

  it('reads a glossary word as the records’ French term first, and still finds the word as typed', () => {
    const page = search('what is the fine for speeding', 10)
    expect(page.interpretation!.expanded).toContainEqual({ word: 'fine', with: ['amende'] })
    expect(page.results[0]!.record.id).toBe('fait-76df92af667c296a')
    // match=all is widened, never narrowed: a record holding the French adjective « fine » keeps matching « fine ».
    const typedAlone = search('fine').results.map((e) => e.record.id)
    const english = new Set(search('what is fine', 100).results.map((e) => e.record.id))
    for (const id of typedAlone) expect(english.has(id), id).toBe(true)
  })

  it('leaves a French sentence with an English word in it French', () => {
    expect(search('permis à 17 ans in Lyon').interpretation!.ignored).not.toContain('ans')
    expect(search('la voiture est fine').interpretation!.expanded).not.toContainEqual({
      word: 'fine',
      with: ['amende'],
    })
  })
})

describe('a negation or quantity phrase', () => {
  it('is read as the case the rules state, ahead of records that only hold its subject', () => {
    const page = search("je n'ai plus aucun point", 10)
    expect(page.interpretation!.words).toEqual(['plus aucun point'])
    expect(page.results[0]!.record.id).toBe('fait-50cfb3a0fbf83335')
    expect(search("il n'y a aucun panneau", 10).interpretation!.expanded).toContainEqual({
      word: 'aucun panneau',
      with: ['priorité à droite'],
    })
  })

  it('still finds every record its subject alone found (match=all is widened, never narrowed)', () => {
    const subjectAlone = search('point', 300).results.map((e) => e.record.id)
    const negated = new Set(search('plus de points', 300).results.map((e) => e.record.id))
    for (const id of subjectAlone) expect(negated.has(id), id).toBe(true)
  })

  it('leaves a structure word outside every phrase a filler', () => {
    expect(search('plus de 7 jours').interpretation!.ignored).toContain('plus')
  })
})
