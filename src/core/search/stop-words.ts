/**
 * Words a query does not require. Two lists, both already folded (so "à" is "a", "où" is "ou"):
 *
 * - `STOP_WORDS`, the contract's French stop words (articles, prepositions, pronouns): unchanged.
 * - `QUESTION_WORDS`, words that carry no subject in a question: interrogatives, the auxiliary and
 *   modal verbs people put before the verb that matters, subject pronouns split off by a hyphen
 *   ("peut-on", "a-t-il"), and a few function words. Measured on the relevance table
 *   (docs/search.md): 27 of its 40 questions found nothing while these words were required.
 *
 * What stays significant on purpose: "sans" ("rouler sans assurance"), "plus" ("plus de sept
 * jours"), "avant"/"arrière", numbers, and every noun, even a vague one ("cas", "temps").
 * If every word of a query is in either list, they all count (CONTRACT.md), so "comment" alone
 * still searches for "comment".
 */
import { fold, foldPlural } from './tokenize.js'

export const STOP_WORDS: ReadonlySet<string> = new Set([
  'a', 'au', 'aux', 'avec', 'ce', 'ces', 'cet', 'cette', 'd', 'dans', 'de', 'des', 'du', 'elle', 'elles', 'en',
  'est', 'et', 'il', 'ils', 'je', 'jusqu', 'l', 'la', 'le', 'les', 'leur', 'leurs', 'lorsqu', 'ma', 'mais', 'me',
  'mes', 'mon', 'ne', 'ni', 'nos', 'notre', 'nous', 'on', 'ou', 'par', 'pas', 'pour', 'puisqu', 'qu', 'que',
  'quel', 'quelle', 'quelles', 'quels', 'qui', 'sa', 'se', 'ses', 'son', 'sont', 'sur', 'ta', 'te', 'tes', 'toi',
  'ton', 'tu', 'un', 'une', 'vos', 'votre', 'vous', 'y',
])

export const QUESTION_WORDS: ReadonlySet<string> = new Set([
  // interrogatives ("où" folds to "ou", already a stop word)
  'comment', 'combien', 'quand', 'pourquoi', 'quoi', 'lequel', 'laquelle', 'lesquels', 'lesquelles', 'quelqu',
  // pouvoir, devoir, falloir, vouloir, savoir: "est-ce que je peux…", "faut-il…", "doit-on…"
  'peux', 'peut', 'pouvons', 'pouvez', 'peuvent', 'pourrait', 'pourrais', 'pouvoir', 'puis',
  'dois', 'doit', 'devons', 'devez', 'doivent', 'devrait', 'devrais', 'devoir',
  'faut', 'faudrait', 'falloir', 'veux', 'veut', 'voudrais', 'vouloir', 'sais', 'sait', 'savoir',
  // être, avoir, faire, aller as auxiliaries or light verbs ("est-ce", "a-t-on", "que faire", "vais-je")
  'suis', 'es', 'etre', 'sera', 'serait', 'ai', 'as', 'avons', 'avez', 'ont', 'avoir', 'aura', 'aurait',
  'fais', 'fait', 'faites', 'font', 'faire', 'vais', 'vas', 'va', 'vont', 'aller',
  // pronouns and function words of a question ("a-t-il" leaves a bare "t")
  't', 'moi', 'lui', 'eux', 'soi', 'ca', 'cela', 'ceci', 'si', 'dont', 'chez', 'quelque', 'chose', 'lorsque', 'alors',
  'donc', 'car', 'tout', 'tous', 'toute', 'toutes', 'tres', 'trop', 'bien', 'deja', 'encore', 'maintenant', 'lors',
  // "en cas de panne", "mettre son clignotant", "mettre les pneus hiver": the subject is elsewhere
  'cas', 'mettre', 'met', 'mets', 'mettez',
])

/**
 * Question phrases whose words are each meaningful elsewhere: "temps" is a subject in "temps de
 * réaction" but not in "combien de temps dure…", and "coûte" asks for an amount in "combien coûte
 * une amende…", which the answer states as a figure ("135 €"), not as the verb (while "l'assurance
 * coûte plus cher" keeps it). Matched on the query's folded words in a row.
 */
const QUESTION_PHRASES: readonly (readonly string[])[] = [
  ['combien', 'de', 'temps'],
  ['combien', 'coûte'],
  ['combien', 'coûtent'],
  ['coûte', 'combien'],
  ['coûtent', 'combien'],
  ['a', 'partir', 'de'],
].map((phrase) => phrase.map((word) => foldPlural(fold(word))))

/** For each folded word of a query, whether a question phrase covers it. */
export function inQuestionPhrase(words: readonly string[]): boolean[] {
  const covered = words.map(() => false)
  for (let at = 0; at < words.length; at++) {
    for (const phrase of QUESTION_PHRASES) {
      if (phrase.every((w, i) => words[at + i] === w)) phrase.forEach((_, i) => (covered[at + i] = true))
    }
  }
  return covered
}

// Queries are folded with plurals folded ("toutes" is searched as "toute"): the lists are compared the same way.
const IGNORABLE: ReadonlySet<string> = new Set([...STOP_WORDS, ...QUESTION_WORDS].map(foldPlural))

/** Whether a folded word is left out of what a query requires (unless the query has nothing else). */
export const isIgnorable = (word: string): boolean => IGNORABLE.has(word)
