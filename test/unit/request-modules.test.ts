/**
 * How many project modules one request runs, by V8 coverage (scripts/request-modules.ts): a count,
 * not a timing. Issue 45's goal is at most 8 for a 307 and 12 for a search the cache answers. From
 * the script they are 8 and 11 (9 and 12 before the quota and its stores' contract were one module;
 * 24 and 27 before the front door, the admission, dispatch and respond were each made one module; 26
 * and 29 before the route table): the quota and its in-memory store, the connection tracker, the
 * front door, the route table's reading, the admission, dispatch and respond, plus the live records,
 * the prepared body and the answer cache for the search.
 */
import { expect, it } from 'vitest'
import { requestModules } from '../../scripts/request-modules.js'

// The goals, and one more under the test runner than from the script: a subscriber of the
// trace channels runs.
const CEILINGS = { redirect: 9, cachedSearch: 13 }

it('runs no more project modules for a 307 and for a cached search than the ceilings', async () => {
  const modules = await requestModules()
  expect(modules.redirect.length, modules.redirect.join(', ')).toBeLessThanOrEqual(CEILINGS.redirect)
  expect(modules.cachedSearch.length, modules.cachedSearch.join(', ')).toBeLessThanOrEqual(
    CEILINGS.cachedSearch,
  )
  // The front door and the admission are on both paths: the count reads the right files.
  for (const files of [modules.redirect, modules.cachedSearch]) expect(files).toContain('http/admission.ts')
})
