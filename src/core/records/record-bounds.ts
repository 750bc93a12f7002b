/**
 * How large a record may be (docs/contract.md "Record bounds"). A record is served by every page and
 * answer that holds it, and its cost there grows with its size: bounding it at load and at publish
 * keeps one record from taking the event loop (issue 32: a 320 KB record made the search page take
 * seconds, a 200 MB one ran a replica out of memory). The bounds are far above the sample's largest
 * values (a text of 1 312 characters, 5 sources) and count UTF-16 code units, as zod's `max` does.
 */
export const RECORD_BOUNDS = {
  /** `title`, `chapter.title`, a source's `label`, a related record's `title`, a region, a video's title. */
  shortText: 500,
  /** `text`, the body of a record: a long article fits, a 320 KB test record fits. */
  text: 400_000,
  /** `description`, a related record's `text`, a video's `description`, a bibliography entry, open fields' strings. */
  longText: 5_000,
  /** Any URL. */
  url: 2_000,
  /** `regions`, `sources`, `related`, `bibliography`, `video.chapters`, `organization_data.same_as`. */
  items: 200,
  /** Every string of a record together, the open objects' included: what bounds the record as a whole. */
  totalCharacters: 1_000_000,
  /** Members of one object of an open field (`offer_data`, `organization_data`, …), at any depth. */
  objectMembers: 200,
  /** Items of one array of an open field, at any depth. */
  arrayItems: 1_000,
  /** Objects and arrays nested in one another, the record itself counted as 1. */
  depth: 32,
} as const
