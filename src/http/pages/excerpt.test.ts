import { expect, it } from 'vitest'
import { foldedWords, highlight } from '../../core/search/excerpt.js'
import { marked } from './excerpt.js'
import { html } from './html.js'

it('renders marks and escapes the text around them', () => {
  const parts = highlight('<b>vitesse</b> & co', foldedWords(['vitesse']))
  expect(marked(parts).value).toBe('&lt;b&gt;<mark>vitesse</mark>&lt;/b&gt; &amp; co')
  expect(html`<p title="${'"x"'}">${html`<i>ok</i>`}${undefined}${false}${['a', 1]}</p>`.value).toBe(
    '<p title="&quot;x&quot;"><i>ok</i>a1</p>',
  )
})
