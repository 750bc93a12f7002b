import { describe, expect, it } from 'vitest'
import { readRecordRef, teachingMessage } from './record-ref.js'

const ID = 'fait-643b555e754f953d'

describe('readRecordRef', () => {
  it.each([
    [ID, ID],
    [ID.toUpperCase(), ID],
    [` "${ID}". `, ID],
    [`https://records.example.org/fiches/${ID}`, ID],
    [`http://localhost:8080/fiches/${ID}/`, ID],
    [`https://records.example.org/api/v1/facts/${ID}?po_live=1`, ID],
    [`reference-records://facts/${ID}`, ID],
    ['expertise-fait-0123456789abcdef', 'expertise-fait-0123456789abcdef'],
    [`la fiche ${ID} dit`, ID],
  ])('reads %s as an id', (input, id) => {
    expect(readRecordRef(input)).toEqual({ id })
  })
  it('reads another URL as the address of an original page', () => {
    expect(readRecordRef('https://code-et-conduite.example/alcoolemie-permis-probatoire')).toEqual({
      url: 'https://code-et-conduite.example/alcoolemie-permis-probatoire',
    })
  })
  it('leaves a title or a near-miss id as text', () => {
    expect(readRecordRef('Vitesse maximale en agglomération')).toEqual({
      text: 'Vitesse maximale en agglomération',
    })
    expect(readRecordRef('fait-643b555e754f953')).toEqual({ text: 'fait-643b555e754f953' })
    expect(readRecordRef('fait-643b555e754f953dd')).toEqual({ text: 'fait-643b555e754f953dd' })
  })
})

describe('teachingMessage', () => {
  it('says what an id looks like, what matched the words, and the search to make', () => {
    const message = teachingMessage('Vitesse en ville', 'get_fact', [
      { id: ID, title: 'Vitesse maximale en agglomération' },
    ])
    expect(message).toContain('get_fact: no record is named by "Vitesse en ville"')
    expect(message).toContain('fait-643b555e754f953d (official rule)')
    expect(message).toContain(`- ${ID} « Vitesse maximale en agglomération »`)
    expect(message).toContain('Find ids with search_facts {"q": "Vitesse en ville"}.')
  })
})
