import { describe, expect, it } from 'vitest'
import { ApiError } from '../../core/errors.js'
import { MAX_PAGE, parseSearchPageQuery, searchPath } from './search-params.js'

const refusal = (query: string) => {
  try {
    parseSearchPageQuery(query)
  } catch (err) {
    return err instanceof ApiError ? `${err.code}: ${err.message}` : String(err)
  }
  return 'accepted'
}

describe('parseSearchPageQuery', () => {
  it('reads the form: words, filters and page; empty fields mean "any"', () => {
    expect(parseSearchPageQuery('q=priorit%C3%A9+%C3%A0+droite&kind=lesson&region=france&page=2')).toEqual({
      q: 'priorité à droite',
      kind: 'lesson',
      region: 'france',
      page: 2,
    })
    expect(parseSearchPageQuery('q=&kind=&region=&page=')).toEqual({ page: 1 })
    expect(parseSearchPageQuery(undefined)).toEqual({ page: 1 })
    expect(parseSearchPageQuery('q=++vitesse++')).toEqual({ q: 'vitesse', page: 1 })
  })
  it('ignores parameters a browser or a shared link adds', () => {
    expect(parseSearchPageQuery('q=vitesse&utm_source=mail&fbclid=x')).toEqual({ q: 'vitesse', page: 1 })
  })
  it('refuses what it cannot use, in French, naming the value', () => {
    expect(refusal('kind=regle')).toBe(
      'invalid_parameter: Le type de fiche « regle » n’existe pas ; choisissez-en un dans la liste.',
    )
    expect(refusal('region=bretagne')).toBe(
      'invalid_parameter: La région « bretagne » n’est pas connue ; la seule proposée est France.',
    )
    expect(refusal('page=0')).toBe(
      `invalid_parameter: Le numéro de page doit être un nombre entier de 1 à ${MAX_PAGE}.`,
    )
    expect(refusal('page=deux')).toBe(
      `invalid_parameter: Le numéro de page doit être un nombre entier de 1 à ${MAX_PAGE}.`,
    )
    expect(refusal(`page=${MAX_PAGE + 1}`)).toBe(
      `invalid_parameter: Les résultats s’arrêtent à la page ${MAX_PAGE} ; affinez la recherche.`,
    )
    expect(refusal(`q=${'a'.repeat(301)}`)).toBe(
      'invalid_parameter: La recherche fait 301 caractères ; 300 au plus sont acceptés.',
    )
    expect(refusal('q=a%01b')).toBe(
      'invalid_parameter: La recherche contient des caractères de contrôle ; retirez-les.',
    )
    expect(refusal('q=%E9')).toBe(
      'invalid_parameter: L’adresse de la recherche est mal encodée ; relancez la recherche depuis le formulaire.',
    )
    expect(refusal('kind=fact&kind=lesson')).toBe(
      'invalid_parameter: Le paramètre « kind » est donné 2 fois ; donnez-le une seule fois.',
    )
  })
  it(`accepts the last page the search can reach (${MAX_PAGE})`, () => {
    expect(parseSearchPageQuery(`page=${MAX_PAGE}`).page).toBe(MAX_PAGE)
  })
})

it('gives one address per search, defaults left out', () => {
  expect(searchPath({ page: 1 })).toBe('/recherche')
  expect(searchPath({ q: 'priorité à droite', kind: 'fact', region: 'france', page: 3 })).toBe(
    '/recherche?q=priorit%C3%A9+%C3%A0+droite&kind=fact&region=france&page=3',
  )
  expect(parseSearchPageQuery(searchPath({ q: 'a&b=c', page: 2 }).split('?')[1])).toEqual({
    q: 'a&b=c',
    page: 2,
  })
})
