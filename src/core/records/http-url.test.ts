import { describe, expect, it } from 'vitest'
import { expectRandomUrlsRuled } from '../../../test/support/properties/http-url.js'
import { httpUrlProblem } from './http-url.js'

describe('a record URL', () => {
  it('is accepted when it is an http(s) URL on a domain, written as the URL parser writes it', () => {
    for (const value of [
      'https://code-et-conduite.example/regles/priorite-a-droite',
      'http://www.legifrance.gouv.fr/codes/article_lc/LEGIARTI000006842256/',
      'https://example.com/A?b=c&d=%C3%A9#frag',
      'https://a-b.c-d.fr/x;y=z/(1)/*,!$@:~',
      'https://example.com/?q',
      'https://example.com/#top',
      'https://example.com:8080/',
      'https://1.2.3.4.example/',
      'https://www.xn--bcher-kva.example/',
    ])
      expect([value, httpUrlProblem(value)]).toEqual([value, undefined])
  })

  it.each([
    [
      'https://example.com/"><script>alert(1)</script>',
      /WHATWG URL parser writes it: "https:\/\/example.com\/%22%3E%3Cscript%3E/,
    ],
    ["https://example.com/'onmouseover='alert(1)", /must not hold a quote \(write it %27\)/],
    ['https://example.com/?a=`x`', /must not hold a backtick/],
    ['https://example.com/#a\\b', /must not hold a backslash \(write it %5C\)/],
    ['https://example.com/a b', /"https:\/\/example.com\/a%20b"/],
    ['https://example.com/<tag>', /%3Ctag%3E/],
    [' https://example.com/', /writes it: "https:\/\/example.com\/"/],
    ['https://example.com/\n', /writes it: "https:\/\/example.com\/"/],
    ['https://exa\tmple.com/', /writes it: "https:\/\/example.com\/"/],
    ['https://example.com', /writes it: "https:\/\/example.com\/"/],
    ['https://EXAMPLE.com/', /writes it: "https:\/\/example.com\/"/],
    ['HTTPS://example.com/', /writes it: "https:\/\/example.com\/"/],
    ['https://example.com:443/', /writes it: "https:\/\/example.com\/"/],
    ['https://example.com/a/../b', /writes it: "https:\/\/example.com\/b"/],
    ['https:example.com/', /writes it: "https:\/\/example.com\/"/],
    ['https://example.com\\@evil.com/', /writes it/],
    ['https://example.com/é', /%C3%A9/],
    ['https://bücher.example/', /xn--bcher-kva/],
    ['https://example.com/\u2028', /%E2%80%A8/],
    ['javascript:alert(1)', /must be an http or https URL, not "javascript"/],
    ['ftp://example.com/', /not "ftp"/],
    ['/relative/path', /the URL parser cannot read it/],
    ['https://', /the URL parser cannot read it/],
    ['https://localhost/', /must name a domain, not "localhost"/],
    ['https://127.0.0.1/', /must name a domain/],
    ['https://[::1]/', /must name a domain/],
    ['https://example.com./', /must name a domain/],
  ])('refuses %j, saying why', (value, reason) => {
    expect(httpUrlProblem(value)).toMatch(reason)
  })

  it('holds its promises over random URL-like strings', () => {
    expectRandomUrlsRuled(1_000)
  })
})
